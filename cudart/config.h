/* Which simulated GPU the runtime replacement creates: read from the environment
 * that `locsim exec` sets (a program can also be run with the variables set by hand).
 *   LOCSIM_CONFIG   config name (fermi_gtx480, ...) or file
 *   LOCSIM_MODE     functional | timing
 *   LOCSIM_OPTIONS  extra "-option value" pairs, as on the locsim command line
 *   LOCSIM_JSON     write the statistics there instead of stderr (stats.c) */
#ifndef LOCSIM_CUDART_CONFIG_H
#define LOCSIM_CUDART_CONFIG_H

#include <stddef.h>

#include "locsim/locsim.h"

/* Fill *cfg (NULL = the built-in defaults; free with locsim_config_free after the
 * device), *mode (timing unless LOCSIM_MODE=functional) and a printable config
 * name.  Returns 0, or -1 with a message in err. */
int cr_config_from_env(locsim_config **cfg, locsim_mode *mode, char *name, size_t namelen, char *err,
                       size_t errlen);

/* Split an options string into words, honouring "double" and 'single' quotes
 * (LOCSIM_OPTIONS="-gpgpu_dram_timing_opt \"nbk=16:CCD=2\"").  Returns a malloc'd
 * NULL-terminated array of malloc'd words (free with cr_free_words), or NULL with a
 * message on an unterminated quote. */
char **cr_split_words(const char *s, int *count, char *err, size_t errlen);
void cr_free_words(char **words);

#endif
