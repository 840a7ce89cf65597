/* Output files written whole or not at all.
 *
 * Every file locsim writes as a result (the --json statistics of `run` and
 * `exec`, the reports) goes through here: the text is written to a temporary
 * file beside the target and renamed over it only once everything has been
 * written and flushed without error.  A run that fails, is killed, or hits a
 * full disk therefore leaves an earlier result untouched, and a write error is
 * reported with the system's reason instead of leaving a truncated file.
 *
 * A target that is not a regular file (/dev/full, /dev/stdout, a FIFO) cannot be
 * replaced by a rename and is written in place; its write errors are reported
 * the same way. */
#ifndef LOCSIM_OUTFILE_H
#define LOCSIM_OUTFILE_H

#include <stdio.h>

typedef struct {
    FILE *f;          /* write the content here */
    char *path;       /* the target */
    char *tmp;        /* the temporary beside it; NULL when writing in place */
} outfile;

/* Open an output file for path.  0, or -1 with errno set (a missing folder, a
 * directory, no permission: the folder must let us create the temporary). */
int outfile_open(outfile *o, const char *path);
/* Flush and close; on success rename the temporary over the target.  0, or -1
 * with errno set (the temporary is removed, the target keeps its old content). */
int outfile_commit(outfile *o);
/* Close and remove the temporary: the target keeps its old content. */
void outfile_abort(outfile *o);
/* Whether path could be written (outfile_open, then outfile_abort): checked
 * before a long run, without touching the target.  0, or -1 with errno set. */
int outfile_check(const char *path);

/* Flush the standard output and report a write error (a full disk, a closed
 * pipe) as "<who>: error writing the standard output: <reason>" on stderr.
 * Returns 0, or -1 after the message. */
int outfile_finish_stdout(const char *who);

#endif
