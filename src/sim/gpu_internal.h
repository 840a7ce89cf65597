/* Internals of the timing model's top (src/sim/gpu*.c, timing.c). */
#ifndef LOCSIM_SIM_GPU_INTERNAL_H
#define LOCSIM_SIM_GPU_INTERNAL_H

#include "sim/config.h"
#include "sim/gpu.h"

/* Fill p from a finalized configuration; -1 with err on an unknown policy name. */
int gpu_params_from_config(const sim_config *c, gpu_params *p, char *err, size_t errlen);
/* Check the plug-ins' argument strings by creating one instance of each. */
int gpu_params_validate(const gpu_params *p, char *err, size_t errlen);

#endif
