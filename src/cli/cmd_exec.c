/* locsim exec: run an unmodified CUDA program on the simulator.
 *
 *   locsim exec [--config NAME|FILE] [--functional] [-option value ...] [--json FILE] -- ./app args...
 *
 * The program must be built with `nvcc -cudart shared` (it then loads libcudart.so.13
 * at start-up).  We put the directory holding locsim's replacement library (built
 * next to this binary, in cudart/) first on LD_LIBRARY_PATH, describe the simulated
 * GPU in LOCSIM_* environment variables, run the program and exit with its status
 * (128+n when a signal n killed it, as a shell reports it).  The library prints the
 * statistics at exit, to stderr or the --json file, so the program's stdout is
 * untouched.
 */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/outfile.h"

#define CUDART_SONAME "libcudart.so.13"

static void exec_usage(FILE *out) {
    fprintf(out,
            "usage: locsim exec [--config NAME|FILE] [--functional] [-option value ...] [--json FILE] -- ./app args...\n"
            "  Runs a CUDA program built with `nvcc -cudart shared` (and with PTX, e.g. -arch=compute_75)\n"
            "  on the simulated GPU, unmodified.  Per-kernel and total statistics are printed to stderr\n"
            "  at exit (or written to FILE with --json); the exit status is the program's.\n"
            "  --config NAME|FILE   GPU configuration (default: fermi_gtx480)\n"
            "  --functional         functional simulation only (no timing model)\n"
            "  --memcheck           stop at the first out-of-bounds access with a compute-sanitizer-style\n"
            "                       report (= -memcheck 1; default: run as a GPU does, count them)\n"
            "  -option value        override one configuration option (see locsim --help-options)\n"
            "  --json FILE          write the statistics to FILE as JSON\n"
            "  -quiet               no progress lines on stderr during long kernels\n");
}

typedef struct {
    const char *config;
    const char *json;
    int functional;
    int quiet;            /* -quiet: no progress lines (LOCSIM_QUIET=1) */
    char *options;        /* "-opt value -opt value", each word single-quoted */
    char **program_argv;  /* points into argv */
} exec_options;

/* Append word to the options string, quoted so the library splits it back exactly. */
static int append_option_word(char **options, const char *word) {
    if (strchr(word, '\'')) {
        fprintf(stderr, "locsim exec: option value %s contains a single quote, which is not supported\n", word);
        return -1;
    }
    size_t old = *options ? strlen(*options) : 0;
    char *s = realloc(*options, old + strlen(word) + 4);
    if (!s) return -1;
    sprintf(s + old, "%s'%s'", old ? " " : "", word);
    *options = s;
    return 0;
}

static int parse_exec_options(int argc, char **argv, exec_options *o) {
    memset(o, 0, sizeof *o);
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (a[0] != '-') break;  /* the program itself (the "--" is optional) */
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            exec_usage(stdout);
            exit(0);
        }
        if (!strcmp(a, "--functional")) {
            o->functional = 1;
            continue;
        }
        if (!strcmp(a, "-quiet") || !strcmp(a, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        if (!strcmp(a, "--memcheck")) { /* = -memcheck 1 */
            if (append_option_word(&o->options, "-memcheck") || append_option_word(&o->options, "1")) return -1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "locsim exec: %s needs a value\n", a);
            return -1;
        }
        if (!strcmp(a, "--config")) {
            o->config = argv[++i];
        } else if (!strcmp(a, "--json")) {
            o->json = argv[++i];
        } else if (a[1] == '-') {
            fprintf(stderr, "locsim exec: unknown option '%s'\n", a);
            return -1;
        } else {
            if (append_option_word(&o->options, a) || append_option_word(&o->options, argv[++i])) return -1;
        }
    }
    /* The instruction and cycle caps stop the timing model; functional mode has
     * no cycles and does not count against them, so it refuses them rather than
     * ignore them. */
    for (int k = 1; o->functional && k < i; k++) {
        if (!strcmp(argv[k], "-gpgpu_max_insn") || !strcmp(argv[k], "-gpgpu_max_cycle")) {
            fprintf(stderr, "locsim exec: %s caps the timing model: functional mode (--functional) does not honour "
                            "it (drop one or the other)\n", argv[k]);
            return -1;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "locsim exec: no program given\n");
        exec_usage(stderr);
        return -1;
    }
    o->program_argv = argv + i;
    return 0;
}

/* Directory of the running locsim binary. */
static int self_dir(char *dir, size_t size) {
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return -1;
    path[n] = 0;
    char *slash = strrchr(path, '/');
    if (!slash) return -1;
    *slash = 0;
    if ((size_t)snprintf(dir, size, "%s", path) >= size) return -1;
    return 0;
}

/* Where our libcudart.so.13 is: <dir of locsim>/cudart/ (the build tree), or
 * <dir of locsim>/../lib/locsim/ (an installed tree). */
static int find_cudart_dir(char *out, size_t size) {
    char self[PATH_MAX], lib[PATH_MAX + 64];
    if (self_dir(self, sizeof self) != 0) {
        fprintf(stderr, "locsim exec: cannot find the locsim binary's own path\n");
        return -1;
    }
    const char *candidates[] = {"cudart", "../lib/locsim"};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        snprintf(lib, sizeof lib, "%s/%s/%s", self, candidates[i], CUDART_SONAME);
        if (access(lib, R_OK) == 0 && (size_t)snprintf(out, size, "%s/%s", self, candidates[i]) < size) return 0;
    }
    fprintf(stderr, "locsim exec: cannot find %s in %s/cudart/; build it (target locsim_cudart)\n", CUDART_SONAME,
            self);
    return -1;
}

/* Prepend dir to the colon-separated list in environment variable var. */
static int prepend_env_path(const char *var, const char *dir) {
    const char *old = getenv(var);
    size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *v = malloc(n);
    if (!v) return -1;
    snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    int rc = setenv(var, v, 1);
    free(v);
    return rc;
}

/* A path that still means the same after the program changes directory. */
static int set_path_env(const char *var, const char *path) {
    if (path[0] == '/') return setenv(var, path, 1);
    char cwd[PATH_MAX], abs[2 * PATH_MAX + 2];
    if (!getcwd(cwd, sizeof cwd)) return -1;
    snprintf(abs, sizeof abs, "%s/%s", cwd, path);
    return setenv(var, abs, 1);
}

#if defined(__SANITIZE_ADDRESS__)
/* A sanitizer build's libcudart.so.13 needs the AddressSanitizer runtime loaded
 * first, which an uninstrumented CUDA program does not do: preload the one this
 * locsim binary runs with. */
static int find_asan(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    if (info->dlpi_name && strstr(info->dlpi_name, "libasan.so")) {
        snprintf(data, PATH_MAX, "%s", info->dlpi_name);
        return 1;
    }
    return 0;
}

static int setup_sanitizer_env(void) {
    char asan[PATH_MAX] = "";
    dl_iterate_phdr(find_asan, asan);
    if (!*asan) return 0;
    if (prepend_env_path("LD_PRELOAD", asan) != 0) return -1;
    /* The program is not ours: do not fail it for leaks in its own code. */
    const char *opts = getenv("ASAN_OPTIONS");
    if (!opts || !strstr(opts, "detect_leaks")) {
        char v[1024];
        snprintf(v, sizeof v, "%s%sdetect_leaks=0", opts ? opts : "", opts && *opts ? ":" : "");
        return setenv("ASAN_OPTIONS", v, 1);
    }
    return 0;
}
#else
static int setup_sanitizer_env(void) { return 0; }
#endif

/* The program is not the locsim binary, so the library cannot find the shipped
 * configs/ next to it: point LOCSIM_CONFIG_DIR at them (unless the user did). */
static int setup_config_dir(void) {
    char self[PATH_MAX], dir[PATH_MAX + 64];
    const char *old = getenv("LOCSIM_CONFIG_DIR");
    if ((old && *old) || self_dir(self, sizeof self) != 0) return 0;
    const char *candidates[] = {"../configs", "../../configs", "../share/locsim/configs"};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        snprintf(dir, sizeof dir, "%s/%s", self, candidates[i]);
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return setenv("LOCSIM_CONFIG_DIR", dir, 1);
    }
    return 0;
}

static int setup_env(const exec_options *o, const char *cudart_dir) {
    int rc = prepend_env_path("LD_LIBRARY_PATH", cudart_dir);
    rc |= setup_config_dir();
    rc |= setenv("LOCSIM_MODE", o->functional ? "functional" : "timing", 1);
    if (o->config) {
        struct stat st;
        int is_file = strchr(o->config, '/') || stat(o->config, &st) == 0;
        rc |= is_file ? set_path_env("LOCSIM_CONFIG", o->config) : setenv("LOCSIM_CONFIG", o->config, 1);
    } else {
        rc |= unsetenv("LOCSIM_CONFIG");
    }
    rc |= o->options ? setenv("LOCSIM_OPTIONS", o->options, 1) : unsetenv("LOCSIM_OPTIONS");
    rc |= o->json ? set_path_env("LOCSIM_JSON", o->json) : unsetenv("LOCSIM_JSON");
    if (o->quiet) rc |= setenv("LOCSIM_QUIET", "1", 1);
    rc |= setup_sanitizer_env();
    if (rc != 0) fprintf(stderr, "locsim exec: cannot set up the program's environment: %s\n", strerror(errno));
    return rc ? -1 : 0;
}

/* ---- is the program one we can run? ----
 * nvcc links the CUDA runtime statically unless told otherwise; such a program never
 * loads our library and fails with a confusing "driver version is insufficient".
 * Look at the ELF file: device code (.nv_fatbin) without a dynamic libcudart.so.13 is
 * explained before anything runs.  Anything we cannot read is left to run as is. */

typedef struct {
    int has_fatbin;
    char cudart_needed[64];    /* "libcudart.so.N" it needs, or "" */
} program_kind;

/* Section i's header, or NULL when the image is too short for it. */
static const Elf64_Shdr *section(const unsigned char *img, size_t size, const Elf64_Ehdr *eh, unsigned i,
                                 Elf64_Shdr *out) {
    size_t off = eh->e_shoff + (size_t)i * sizeof *out;
    if (i >= eh->e_shnum || off > size || size - off < sizeof *out) return NULL;
    memcpy(out, img + off, sizeof *out);
    if (out->sh_type != SHT_NOBITS && (out->sh_offset > size || out->sh_size > size - out->sh_offset)) return NULL;
    return out;
}

static void scan_dynamic(const unsigned char *img, size_t size, const Elf64_Ehdr *eh, const Elf64_Shdr *dyn,
                         program_kind *k) {
    Elf64_Shdr strtab;
    if (!section(img, size, eh, dyn->sh_link, &strtab)) return;
    for (size_t off = 0; off + sizeof(Elf64_Dyn) <= dyn->sh_size; off += sizeof(Elf64_Dyn)) {
        Elf64_Dyn d;
        memcpy(&d, img + dyn->sh_offset + off, sizeof d);
        if (d.d_tag != DT_NEEDED || d.d_un.d_val >= strtab.sh_size) continue;
        const char *name = (const char *)img + strtab.sh_offset + d.d_un.d_val;
        size_t max = strtab.sh_size - d.d_un.d_val;
        if (strnlen(name, max) < max && !strncmp(name, "libcudart.so", 12))
            snprintf(k->cudart_needed, sizeof k->cudart_needed, "%s", name);
    }
}

/* 0 and *k filled for a readable 64-bit ELF file; -1 otherwise. */
static int inspect_program(const char *path, program_kind *k) {
    memset(k, 0, sizeof *k);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    unsigned char *img = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (img = malloc((size_t)n)) != NULL && fread(img, 1, (size_t)n, f) != (size_t)n) n = -1;
    fclose(f);
    size_t size = n > 0 ? (size_t)n : 0;
    Elf64_Ehdr eh;
    Elf64_Shdr strtab, sh;
    int rc = -1;
    if (!img || size < sizeof eh || memcmp(img, ELFMAG, SELFMAG) != 0 || img[EI_CLASS] != ELFCLASS64) goto out;
    memcpy(&eh, img, sizeof eh);
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || !section(img, size, &eh, eh.e_shstrndx, &strtab)) goto out;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (!section(img, size, &eh, i, &sh)) continue;
        if (sh.sh_type == SHT_DYNAMIC) scan_dynamic(img, size, &eh, &sh, k);
        if (sh.sh_name < strtab.sh_size && strtab.sh_size - sh.sh_name > 10 &&
            !memcmp(img + strtab.sh_offset + sh.sh_name, ".nv_fatbin", 11))
            k->has_fatbin = 1;
    }
    rc = 0;
out:
    free(img);
    return rc;
}

/* The program's file: argv0 itself when it names a path, else found on PATH. */
static int find_program(const char *argv0, char *out, size_t size) {
    if (strchr(argv0, '/')) return (size_t)snprintf(out, size, "%s", argv0) < size ? 0 : -1;
    const char *path = getenv("PATH");
    if (!path) return -1;
    while (*path) {
        size_t len = strcspn(path, ":");
        if ((size_t)snprintf(out, size, "%.*s/%s", (int)len, len ? path : ".", argv0) < size && access(out, X_OK) == 0)
            return 0;
        path += len + (path[len] == ':');
    }
    return -1;
}

/* -1 with a message when the program cannot use our runtime. */
static int check_program(const char *argv0) {
    char path[PATH_MAX];
    program_kind k;
    if (find_program(argv0, path, sizeof path) != 0 || inspect_program(path, &k) != 0) return 0;
    if (!strcmp(k.cudart_needed, "libcudart.so.13")) return 0;
    if (k.cudart_needed[0]) {
        fprintf(stderr, "locsim exec: %s is linked against %s; locsim replaces CUDA 13's libcudart.so.13: "
                "rebuild it with nvcc 13 (-cudart shared)\n", argv0, k.cudart_needed);
        return -1;
    }
    if (k.has_fatbin) {
        fprintf(stderr, "locsim exec: %s contains CUDA device code but the CUDA runtime is linked into it "
                "statically (nvcc's default); rebuild it with -cudart shared\n", argv0);
        return -1;
    }
    return 0;  /* no CUDA in it (a script, a wrapper...): run it as is */
}

/* ---- the program dies with locsim ----
 * SIGTERM, SIGHUP and a SIGINT sent to locsim alone (kill, a job scheduler) are passed
 * on to the program, whose runtime prints the statistics so far and dies of the
 * signal; locsim then exits with 128+n.  A ^C at the terminal already reaches the
 * whole foreground process group, the program included, so it is not sent twice.
 * If locsim itself dies without passing anything on (SIGKILL), the kernel kills the
 * program (PR_SET_PDEATHSIG): it is never left running as an orphan. */
static volatile pid_t child_pid;

static void forward_signal(int sig, siginfo_t *info, void *uctx) {
    (void)uctx;
    int from_terminal = sig == SIGINT && info && info->si_code == SI_KERNEL;
    if (child_pid > 0 && !from_terminal) kill(child_pid, sig);
}

static const int forwarded[3] = {SIGINT, SIGTERM, SIGHUP};

static void forward_signals(struct sigaction old[3]) {
    struct sigaction sa = {.sa_sigaction = forward_signal, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++) sigaction(forwarded[i], &sa, &old[i]);
}

static void restore_signals(const struct sigaction old[3]) {
    for (int i = 0; i < 3; i++) sigaction(forwarded[i], &old[i], NULL);
}

/* Run argv[0] and wait; returns the status a shell would report. */
static int run_and_wait(char **argv) {
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "locsim exec: fork failed: %s\n", strerror(errno));
        return 127;
    }
    if (pid == 0) {
        /* die with locsim, even if it is killed before it can pass a signal on */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
        execvp(argv[0], argv);
        fprintf(stderr, "locsim exec: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    child_pid = pid;
    struct sigaction old[3], ignore = {.sa_handler = SIG_IGN}, old_quit;
    forward_signals(old);
    sigaction(SIGQUIT, &ignore, &old_quit);  /* like system(): ^\ is for the program */
    int status = 0;
    pid_t got;
    do {
        got = waitpid(pid, &status, 0);
    } while (got < 0 && errno == EINTR);
    child_pid = 0;
    restore_signals(old);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (got < 0) {
        fprintf(stderr, "locsim exec: waiting for %s failed: %s\n", argv[0], strerror(errno));
        return 127;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 127;
}

/* The --json file can be written: checked before the program runs (a directory, a
 * missing folder, no permission), with the system's reason, without touching an
 * existing FILE (the program's libcudart writes it whole at exit, outfile.h). */
static int check_json_path(const char *path) {
    if (!path) return 0;
    if (!path[0]) {
        fprintf(stderr, "locsim exec: --json needs a file name, got an empty string\n");
        return -1;
    }
    if (outfile_check(path) != 0) {
        fprintf(stderr, "locsim exec: cannot write the statistics to %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int cmd_exec(int argc, char **argv) {
    exec_options o;
    char cudart_dir[PATH_MAX];
    if (parse_exec_options(argc, argv, &o) != 0) {
        free(o.options);
        return 2;
    }
    int rc = 2;
    if (check_json_path(o.json) == 0 && check_program(o.program_argv[0]) == 0 &&
        find_cudart_dir(cudart_dir, sizeof cudart_dir) == 0 &&
        setup_env(&o, cudart_dir) == 0)
        rc = run_and_wait(o.program_argv);
    free(o.options);
    return rc;
}
