/* libFuzzer's entry for programs that have their own main (libclang_rt.fuzzer_no_main):
 * parses the libFuzzer flags in argv and runs `test` on every input. Swift executables
 * have a main of their own, hence this rather than libFuzzer's main. */
#ifndef FRAMED_LIBFUZZER_H
#define FRAMED_LIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

#endif
