/* What the C libraries framed loads write on their own: GLib's log (Pango, librsvg, GLib itself)
 * and the C library's stderr stream (fontconfig, dav1d). framed's messages are its own, one line
 * per problem; these would add lines of another program's words ("Pango-WARNING **: ...",
 * "Error parsing sequence header") to them. */
#ifndef CMESSAGES_H
#define CMESSAGES_H

/* Routes GLib's log in the process that loaded `library` (a dlopen handle of a library that
 * links GLib: dlsym finds g_log_set_writer_func through it) to framed's writer, once per
 * process whatever the caller: warnings and criticals are dropped (framed says what went wrong
 * in its own words), an error, after which GLib aborts the process, is written as one line,
 * "framed: DOMAIN: MESSAGE". Thread-safe. */
void cmessages_route_glib_log(void *library);

/* What a program does instead of GLib's abort: called with the domain and the message of an
 * error (a thread that cannot start, an allocation that failed), on the thread that met it, and
 * never returns. */
typedef void (*cmessages_fatal_handler)(const char *domain, const char *message);

/* Makes `handler` (NULL: none, GLib's abort after the one line) take every GLib error from
 * now on, in the whole process. For the framed program: a library's user keeps GLib's abort. */
void cmessages_on_fatal(cmessages_fatal_handler handler);

/* Replaces the C library's `stderr` stream with one that writes to descriptor 2 what is written
 * while no quiet section is open, and drops what is written while one is (anywhere in the
 * process: a library may write from a thread of its own). For the framed program, once, before
 * any thread starts; a library's user keeps its own stream. */
void cmessages_quiet_stderr_stream(void);

/* Opens and closes a quiet section around a call into a library that writes to stderr when it
 * meets bad data or runs short of memory (dav1d, fontconfig through Pango and librsvg).
 * Sections nest and may overlap across threads. */
void cmessages_quiet_begin(void);
void cmessages_quiet_end(void);

#endif
