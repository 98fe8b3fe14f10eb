/*
 * Writing the measurement file (measurement_protocol.h): one framed record at a time, each flushed, so
 * that whatever the guest does next, the records already written stay complete.
 */
#ifndef EOK_MEASUREMENT_FILE_H
#define EOK_MEASUREMENT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Opens `path` for writing and writes the magic. false: it cannot be created. */
bool mfile_open(const char* path);

/* A record of `length` payload bytes: begin, then write exactly `length` bytes in parts, then end. */
void mfile_begin(uint32_t type, uint64_t length);
void mfile_write(const void* data, size_t n);
void mfile_end(void);

/* A whole record from one buffer. */
void mfile_record(uint32_t type, const void* payload, size_t length);

/* The descriptor of the file (the guest policy refuses it to the guest), or -1. */
int mfile_fd(void);

#endif
