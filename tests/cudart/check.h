/* Shared by the cudart test programs: abort with the failing call's name and error. */
#ifndef CUDART_TEST_CHECK_H
#define CUDART_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        cudaError_t err_ = (call);                                                                    \
        if (err_ != cudaSuccess) {                                                                    \
            printf("%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call, cudaGetErrorName(err_),         \
                   cudaGetErrorString(err_));                                                         \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

#define EXPECT(cond)                                                                                  \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                                \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)
#endif
