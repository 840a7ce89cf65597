/* The committed results of a sweep (results_file.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "harness/results_file.h"
#include "sim/outfile.h"

#define ZSTD_LEVEL 12   /* a few MB of SQLite pages: level 12 is under a second and ~8x smaller */

void results_file_path(const char *spec_path, const char *name, char *out, size_t n) {
    const char *slash = strrchr(spec_path, '/');
    int dir = slash ? (int)(slash - spec_path) : 0;
    snprintf(out, n, "%.*s%sresults/%s.db.zst", dir, spec_path, slash ? "/" : "", name);
}

static int read_file(const char *path, void **data, size_t *size, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    struct stat sb;
    *data = NULL;
    if (fstat(fileno(f), &sb) == 0 && (*data = malloc(sb.st_size ? (size_t)sb.st_size : 1)))
        *size = fread(*data, 1, (size_t)sb.st_size, f);
    int bad = !*data || ferror(f) || *size != (size_t)sb.st_size;
    fclose(f);
    if (bad) {
        free(*data);
        snprintf(err, errlen, "%s: cannot read it whole", path);
        return -1;
    }
    return 0;
}

/* Write data to path whole or not at all (sim/outfile.h). */
static int write_file(const char *path, const void *data, size_t size, char *err, size_t errlen) {
    outfile o;
    if (outfile_open(&o, path) == 0) {
        if (fwrite(data, 1, size, o.f) == size && outfile_commit(&o) == 0) return 0;
        int why = errno;
        if (o.f) outfile_abort(&o);   /* the write failed; a failed commit cleaned up itself */
        errno = why;
    }
    snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    return -1;
}

/* A private temporary file name for an uncompressed copy. */
static int temp_name(char *out, size_t n) {
    const char *dir = getenv("TMPDIR");
    snprintf(out, n, "%s/locsim-results-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(out);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}

int results_import(results_db *d, const char *path, int *copied, char *err, size_t errlen) {
    *copied = 0;
    if (access(path, F_OK) != 0) return 0;
    void *z;
    size_t zsize;
    if (read_file(path, &z, &zsize, err, errlen)) return -1;
    unsigned long long size = ZSTD_getFrameContentSize(z, zsize);
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > ((size_t)1 << 34)) {
        free(z);
        snprintf(err, errlen, "%s: not a zstd-compressed results database", path);
        return -1;
    }
    void *raw = malloc(size ? (size_t)size : 1);
    size_t got = raw ? ZSTD_decompress(raw, (size_t)size, z, zsize) : 0;
    free(z);
    char tmp[PATH_MAX];
    if (!raw || ZSTD_isError(got) || got != size || temp_name(tmp, sizeof tmp)) {
        free(raw);
        snprintf(err, errlen, "%s: cannot decompress it%s", path, raw ? "" : " (out of memory)");
        return -1;
    }
    int rc = write_file(tmp, raw, got, err, errlen);
    free(raw);
    if (!rc) rc = db_merge(d, tmp, copied, err, errlen);
    unlink(tmp);
    if (rc) {
        char why[768];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "%s: %s", path, why);
    }
    return rc;
}

int results_export(results_db *d, const char *path, char *err, size_t errlen) {
    char tmp[PATH_MAX], dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: cannot create the folder: %s", dir, strerror(errno));
            return -1;
        }
    }
    if (temp_name(tmp, sizeof tmp)) {
        snprintf(err, errlen, "cannot create a temporary file: %s", strerror(errno));
        return -1;
    }
    unlink(tmp);   /* VACUUM INTO wants a new file */
    /* a copy of the database without the per-kernel rows, compacted */
    char *sql = sqlite3_mprintf("VACUUM INTO %Q", tmp);
    int ok = sqlite3_exec(d->db, sql, NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_free(sql);
    sqlite3 *copy = NULL;
    ok = ok && sqlite3_open(tmp, &copy) == SQLITE_OK &&
         sqlite3_exec(copy, "PRAGMA journal_mode=DELETE; DELETE FROM stats WHERE kernel >= 0; DELETE FROM kernels; VACUUM;",
                      NULL, NULL, NULL) == SQLITE_OK;
    if (!ok) snprintf(err, errlen, "%s: cannot copy the database: %s", path, sqlite3_errmsg(copy ? copy : d->db));
    sqlite3_close(copy);
    void *raw = NULL, *z = NULL;
    size_t size = 0;
    if (ok) ok = read_file(tmp, &raw, &size, err, errlen) == 0;
    unlink(tmp);
    if (ok) {
        size_t bound = ZSTD_compressBound(size);
        z = malloc(bound);
        size_t zs = z ? ZSTD_compress(z, bound, raw, size, ZSTD_LEVEL) : 0;
        ok = z && !ZSTD_isError(zs);
        if (!ok) snprintf(err, errlen, "%s: cannot compress the results", path);
        if (ok) ok = write_file(path, z, zs, err, errlen) == 0;
    }
    free(raw);
    free(z);
    return ok ? 0 : -1;
}
