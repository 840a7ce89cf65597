/* Small helpers shared by every part of the memory hierarchy. */
#include "mem/mem_req.h"

static const char *const access_type_names[MEM_ACCESS_TYPE_COUNT] = {
    [MEM_GLOBAL_ACC_R] = "GLOBAL_ACC_R",   [MEM_LOCAL_ACC_R] = "LOCAL_ACC_R",
    [MEM_CONST_ACC_R] = "CONST_ACC_R",     [MEM_TEXTURE_ACC_R] = "TEXTURE_ACC_R",
    [MEM_GLOBAL_ACC_W] = "GLOBAL_ACC_W",   [MEM_LOCAL_ACC_W] = "LOCAL_ACC_W",
    [MEM_L1_WRBK_ACC] = "L1_WRBK_ACC",     [MEM_L2_WRBK_ACC] = "L2_WRBK_ACC",
    [MEM_INST_ACC_R] = "INST_ACC_R",
};

const char *mem_access_type_name(uint8_t type) {
    return type < MEM_ACCESS_TYPE_COUNT ? access_type_names[type] : "UNKNOWN_ACC";
}

uint32_t mem_packet_bytes(const mem_req *r) {
    bool write = mem_access_is_write(r->type);
    bool reply = (r->flags & MEM_REQ_REPLY) != 0;
    /* A request carries data only if it is a write; a reply only if it answers a read. */
    bool carries_data = reply ? !write : write;
    return MEM_PACKET_HEADER_BYTES + (carries_data ? r->size : 0u);
}
