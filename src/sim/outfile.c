/* Output files written whole or not at all (outfile.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/outfile.h"

int outfile_open(outfile *o, const char *path) {
    memset(o, 0, sizeof *o);
    if (!path || !path[0]) {
        errno = ENOENT;
        return -1;
    }
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    /* A symbolic link to a file: the file it names is replaced, the link stays. */
    struct stat lst;
    if (exists && S_ISREG(st.st_mode) && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
        o->path = realpath(path, NULL);
    else
        o->path = strdup(path);
    if (!o->path) return -1;
    if (exists && !S_ISREG(st.st_mode)) {   /* a device or a FIFO: in place */
        o->f = fopen(path, "w");
        if (!o->f) goto fail;
        return 0;
    }
    size_t n = strlen(o->path) + 32;
    o->tmp = malloc(n);
    if (!o->tmp) goto fail;
    snprintf(o->tmp, n, "%s.tmp.XXXXXX", o->path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) goto fail;
    /* mkstemp makes the file 0600; a result file gets the usual 0666 & ~umask */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, exists ? (st.st_mode & 07777) : (0666 & ~mask)) != 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        errno = e;
        goto fail;
    }
    return 0;
fail: {
    int e = errno;
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    errno = e;
    return -1;
}
}

static void release(outfile *o) {
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int outfile_commit(outfile *o) {
    if (!o->f) {
        errno = EBADF;
        return -1;
    }
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int why = errno;
    /* the content reaches the disk before the name does */
    if (!bad && o->tmp && fsync(fileno(o->f)) != 0 && errno != EINVAL) bad = 1, why = errno;
    if (fclose(o->f) != 0 && !bad) bad = 1, why = errno;
    o->f = NULL;
    if (!bad && o->tmp && rename(o->tmp, o->path) != 0) bad = 1, why = errno;
    if (bad && o->tmp) unlink(o->tmp);
    release(o);
    if (bad) {
        errno = why ? why : EIO;
        return -1;
    }
    return 0;
}

void outfile_abort(outfile *o) {
    if (o->f) fclose(o->f);
    if (o->tmp) unlink(o->tmp);
    release(o);
}

int outfile_check(const char *path) {
    outfile o;
    if (outfile_open(&o, path) != 0) return -1;
    outfile_abort(&o);
    return 0;
}

int outfile_finish_stdout(const char *who) {
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    if (!bad) return 0;
    int why = errno ? errno : EIO;
    fprintf(stderr, "%s: error writing the standard output: %s\n", who, strerror(why));
    clearerr(stdout);
    return -1;
}
