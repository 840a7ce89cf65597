/* Internals of locsim's libcudart.so.13 replacement.
 *
 * The library stands in for NVIDIA's CUDA runtime so that a binary built with
 * `nvcc -cudart shared` runs on the simulator unmodified.  This header declares the
 * slice of the CUDA runtime ABI we implement (types and constants with the values
 * CUDA 13's headers give them -- they are part of the binary interface) and the
 * library's shared state.  We do not include NVIDIA's headers: the library must
 * build on machines without the CUDA toolkit.
 *
 * Execution model: every operation runs to completion when it is called, in call
 * order, whatever stream it names.  That is one legal schedule of a CUDA program
 * (the one cuda-memcheck and CUDA_LAUNCH_BLOCKING=1 use) and keeps results
 * deterministic.
 */
#ifndef LOCSIM_CUDART_H
#define LOCSIM_CUDART_H

#include <stddef.h>
#include <stdint.h>

#include "locsim/locsim.h"

/* ---- the CUDA runtime ABI (values fixed by CUDA 13's driver_types.h) ---- */

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorMissingConfiguration = 52,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorInvalidPtx = 218,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorSymbolNotFound = 500,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorUnknown = 999
} cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
} cudaMemoryType;

/* cudaDeviceAttr: the attributes cudaDeviceGetAttribute answers. */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14,
    cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrPciDomainId = 50,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrHostNativeAtomicSupported = 86,
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrNumaConfig = 130,
    cudaDevAttrNumaId = 131,
    cudaDevAttrHostNumaId = 134
};

typedef struct dim3 { unsigned int x, y, z; } dim3;

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2
};
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};
struct cudaHostNodeParams {
    void (*fn)(void *);
    void *userData;
};

#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaHostAllocMapped 0x02
#define cudaEventDisableTiming 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02

typedef struct { char bytes[16]; } cudaUUID_t;

/* struct cudaDeviceProp as CUDA 13 lays it out (clockRate and friends moved to
 * cudaDeviceGetAttribute in CUDA 13).  tests/e2e/cudart_abi.sh checks every offset
 * against the toolkit's header when it is installed. */
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

/* cudaLaunchKernelExC's configuration: attributes are {int id; pad; 64-byte value}. */
typedef struct cudaLaunchAttribute {
    int id;
    char pad[4];
    union {
        char pad[64];
        int cooperative;                               /* id 2 */
        struct { unsigned int x, y, z; } clusterDim;   /* ids 4 and 11 */
    } val;
} cudaLaunchAttribute;

typedef struct cudaLaunchConfig_t {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} cudaLaunchConfig_t;

#define cudaLaunchAttributeCooperative 2
#define cudaLaunchAttributeClusterDimension 4
#define cudaLaunchAttributePreferredClusterDimension 11

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

struct cudaPointerAttributes {
    cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};

/* Public entry points the library also calls itself. */
cudaError_t cudaPeekAtLastError(void);

/* ---- the simulated device, as the CUDA properties describe it ---- */
typedef struct {
    char name[256];
    int sms;
    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int max_block_dim[3];
    int max_grid_dim[3];
    size_t smem_per_block;
    size_t smem_per_sm;
    int regs_per_block;
    int regs_per_sm;
    int clock_khz;          /* core clock */
    int mem_clock_khz;
    int mem_bus_width;      /* bits, all channels */
    int l2_bytes;
    size_t global_mem;
    size_t const_mem;
    int cc_major, cc_minor; /* reported compute capability (PTX target of nvcc 13: 7.5) */
} cr_devinfo;

/* ---- registrations (one per __cudaRegisterFatBinary) ---- */
typedef struct cr_fatbin {
    const void *wrapper;        /* what the program passed: our handle is &fatbin->handle */
    void *handle;               /* the program stores &handle as its void ** */
    int index;                  /* registration order, for diagnostics */
    unsigned wrapper_version;   /* 1, or 2 for relocatable device code */
    char *ptx;                  /* the PTX text we load (owned), NULL when none */
    size_t ptx_len;
    uint32_t ptx_sm;
    int ncubins;
    uint8_t *cubin;             /* the cubin for ptx_sm (owned), NULL when none: registers per
                                   thread come from it (cubin.h), else they are estimated */
    size_t cubin_len;
    int nfuncs, nvars;          /* registered against it */
    locsim_module *mod;         /* NULL until loaded on the current device */
    struct cr_fatbin *next;
} cr_fatbin;

typedef struct cr_function {
    const void *host_fun;       /* the host stub's address: the program's kernel handle */
    char *name;                 /* mangled PTX entry name */
    cr_fatbin *fb;
    locsim_kernel *kernel;      /* resolved lazily; reset when the device is reset */
    uint32_t max_dyn_smem;      /* cudaFuncAttributeMaxDynamicSharedMemorySize */
} cr_function;

typedef struct cr_var {
    const void *host_var;       /* host shadow address (for managed vars: the host copy) */
    char *name;
    size_t size;
    int constant;
    cr_fatbin *fb;
    void **managed_ptr;         /* __managed__ variables: where the host reads the pointer */
    struct cr_region *region;   /* __managed__ variables: the host copy */
} cr_var;

/* A range of host memory the device can address: cudaMallocManaged, cudaMallocHost,
 * cudaHostAlloc and __managed__ variables.  The host copy is the reference between
 * launches; launch_sync_to_device() copies every region into device memory before a
 * kernel runs and launch_sync_to_host() copies it back afterwards.  Where the host
 * mapping could be placed at the device address itself ("identity"), pointers into
 * the region mean the same on both sides, including pointers stored in memory;
 * otherwise kernel arguments that point into the host copy are translated. */
typedef struct cr_region {
    uint8_t *host;
    locsim_dptr dev;
    size_t size;
    int identity;               /* host == (uint8_t *)dev, an mmap at the device address */
    int detached;               /* a __managed__ variable's copy while its module is unloaded */
    int kind;                   /* CR_REGION_* */
    struct cr_region *next;
} cr_region;

/* REGISTERED: cudaHostRegister'ed memory; its host copy is the program's own memory,
 * never mapped at the device address (kernel arguments pointing into it are
 * translated) and never freed here. */
enum { CR_REGION_MANAGED = 1, CR_REGION_PINNED = 2, CR_REGION_MANAGED_VAR = 3, CR_REGION_REGISTERED = 4 };

/* ---- state and helpers (state.c) ---- */
typedef struct {
    locsim_device *dev;         /* created on first use */
    locsim_config *cfg;         /* its configuration (NULL: built-in defaults) */
    locsim_mode mode;
    char config_name[256];
    cr_devinfo info;
    cr_fatbin *fatbins;         /* registration order (appended) */
    int nfatbins;
    cr_function *funcs;
    int nfuncs, cap_funcs;
    cr_var *vars;
    int nvars, cap_vars;
    cr_region *regions;
    int current_device;
    cudaError_t sticky_error;   /* a kernel fault: every later call returns it until reset */
    int unloading;              /* library destructor ran */
    int died;                   /* cr_die: exiting on a fatal error */
    int noted_functional_events;
} cr_state;

/* ---- arrays, textures and surfaces (CUDA 13's driver_types.h / texture_types.h) ---- */
enum cudaChannelFormatKind {
    cudaChannelFormatKindSigned = 0,
    cudaChannelFormatKindUnsigned = 1,
    cudaChannelFormatKindFloat = 2,
    cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
typedef struct cudaArray *cudaArray_t;             /* our locsim_array */
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    enum cudaMemcpyKind kind;
};
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08
enum cudaResourceType {
    cudaResourceTypeArray = 0,
    cudaResourceTypeMipmappedArray = 1,
    cudaResourceTypeLinear = 2,
    cudaResourceTypePitch2D = 3
};
struct cudaResourceDesc {
    enum cudaResourceType resType;
    union {
        struct { cudaArray_t array; } array;
        struct { cudaMipmappedArray_t mipmap; } mipmap;
        struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width, height, pitchInBytes;
        } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned int flags;
};
enum cudaTextureAddressMode {
    cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2, cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
    enum cudaTextureAddressMode addressMode[3];
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    enum cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};
struct cudaResourceViewDesc;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

extern cr_state cr;

/* Lock the runtime and make sure the device exists: returns cudaSuccess or the error
 * every call must return now (sticky fault, unloading).  Pair with cr_leave. */
cudaError_t cr_enter(void);
/* Record e as the last error when it is one, unlock, return e. */
cudaError_t cr_leave(cudaError_t e);
/* Record e as this thread's last error when it is one; return e. */
cudaError_t cr_record(cudaError_t e);
/* cudaDeviceReset: forget the sticky error and this thread's last error. */
void cr_clear_errors(void);
/* Lock only (for calls that must work even after a sticky error). */
void cr_lock(void);
void cr_unlock(void);

/* The device, created from the environment on first use (exits with a message when
 * the configuration is bad: there is nothing sensible to run on). */
locsim_device *cr_device(void);
/* Fatal error in the program's use of the runtime: print "locsim: ..." and exit(1). */
void cr_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Signals (state.c): partial statistics on SIGINT/SIGTERM/SIGHUP, then death by it. */
void cr_install_signal_handlers(void);
void cr_set_in_kernel(int timing);
void cr_die_by_signal(int sig) __attribute__((noreturn));
/* Print "locsim: ..." to stderr (diagnostics, never the program's stdout). */
void cr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- stream capture (graph.c) ---- */
/* The graph stream s is capturing into, or NULL. */
cudaGraph_t cr_capture_graph(cudaStream_t s);
/* Operations on a capturing stream become nodes of its graph instead of running. */
cudaError_t cr_capture_kernel(cudaGraph_t g, const void *func, dim3 grid, dim3 block, size_t smem, void **args);
cudaError_t cr_capture_memcpy(cudaGraph_t g, void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cr_capture_memset(cudaGraph_t g, void *dst, int value, size_t count);
cudaError_t cr_capture_host(cudaGraph_t g, void (*fn)(void *), void *data);
/* cudaEventRecord / cudaStreamWaitEvent: an event recorded on a capturing stream
 * brings a stream that waits for it into the capture. */
void cr_capture_event_record(cudaEvent_t ev, cudaStream_t s);
cudaError_t cr_capture_event_wait(cudaStream_t s, cudaEvent_t ev);
/* The program's name for messages. */
const char *cr_program_name(void);
/* What a pointer used in a copy is (memory.c's classification): device memory
 * (*dev set) or host memory (*host set; managed regions resolve to their host
 * copy).  device_side: the copy's kind says p is device memory. */
cudaError_t cr_copy_endpoint(const void *p, size_t n, int device_side, locsim_dptr *dev, uint8_t **host);
/* Give the device the limits the program set (cudaDeviceSetLimit) that it honours. */
void cr_apply_limits(locsim_device *dev);
/* The largest pitch a copy takes (cudaDevAttrMaxPitch, cudaDeviceProp.memPitch). */
#define CR_MAX_PITCH ((size_t)0x7fffffff)
/* *span = the bytes from the start of the first of `rows` rows of `width` bytes,
 * `pitch` apart, to the end of the last.  cudaErrorInvalidPitchValue when rows
 * overlap (width > pitch) or the pitch is above CR_MAX_PITCH, cudaErrorInvalidValue
 * when the span does not fit in a size_t.  (One row: the pitch is not used.) */
cudaError_t cr_pitched_span(size_t pitch, size_t width, size_t rows, size_t *span);
/* cudaSuccess if s is the default stream or a live stream the program created,
 * else cudaErrorInvalidResourceHandle (a destroyed stream is never dereferenced). */
cudaError_t cr_check_stream(struct CUstream_st *s);
/* Map a simulator status to the CUDA error a real GPU would give. */
cudaError_t cr_from_status(locsim_status s);

/* ---- registration (register.c) ---- */
/* Load every registered module onto the current device (after creation/reset). */
void cr_load_modules(void);
/* The function registered for a host stub pointer, or NULL. */
cr_function *cr_find_function(const void *host_fun);
/* The variable registered for a host shadow address, or NULL. */
cr_var *cr_find_var(const void *host_var);
/* Resolve a function's kernel on the current device; NULL + error code when not. */
locsim_kernel *cr_function_kernel(cr_function *f, cudaError_t *err);
/* Device address and size of a registered variable. */
cudaError_t cr_var_address(cr_var *v, locsim_dptr *addr, size_t *size);
/* Forget every device object (cudaDeviceReset / exit). */
void cr_release_modules(void);
/* Drop every registration (library unload). */
void cr_free_registrations(void);

/* ---- memory (memory.c) ---- */
/* Reserve the device address range in the host address space (early, before the
 * program's own mappings can land there); see memory.c. */
void cr_reserve_device_range(void);
/* The region holding host or device address p (either view), or NULL. */
cr_region *cr_find_region(const void *p);
void cr_regions_to_device(void);
void cr_regions_to_host(void);
/* cudaDeviceReset: free every allocation the program made (cudaMalloc, regions). */
void cr_free_all_allocations(void);
/* Drop the record of device allocations without freeing them (the device goes). */
void cr_forget_allocations(void);
/* Translate a pointer-sized kernel argument that points into a region's host copy
 * (regions without identity mapping). */
uint64_t cr_translate_arg(uint64_t value);
/* Release every region (exit); with keep_vars, __managed__ variables keep their host
 * copies, detached from the device until their module is loaded again (reset). */
void cr_release_regions(int keep_vars);
/* Bind a __managed__ variable to its device storage at addr: create its host copy
 * (or reuse it after a reset) holding the variable's initial value. */
void cr_bind_managed_var(cr_var *v, locsim_dptr addr, size_t size);

/* ---- device description (device.c) ---- */
void cr_devinfo_init(cr_devinfo *info, const locsim_device *dev);

/* ---- statistics (stats.c) ---- */
/* Account one kernel launch: counters before and after. */
void cr_stats_record(const char *kernel, const locsim_counters *before, const locsim_counters *after);
/* Print the per-kernel and total statistics (stderr, or LOCSIM_JSON's file). */
void cr_stats_report(void);
void cr_stats_free(void);
/* Kernels launched so far (distinct names). */
int cr_stats_kernels(void);

/* Simulated time so far in milliseconds (0 in functional mode). */
double cr_sim_time_ms(void);

/* An entry point we do not implement: name it and exit (stubs.c). */
void cr_unsupported(const char *name) __attribute__((noreturn));

#endif
