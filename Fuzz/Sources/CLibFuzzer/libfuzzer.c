/* Nothing to compile: the function is in libclang_rt.fuzzer_no_main (linked by run.sh). */
#include "libfuzzer.h"
