#include "measurement_file.h"

#include <stdio.h>

#include "measurement_protocol.h"

static FILE* g_out;

bool mfile_open(const char* path) {
  g_out = fopen(path, "wb");
  if (!g_out) return false;
  fwrite(EOK_MEAS_MAGIC, 1, EOK_MEAS_MAGIC_LEN, g_out);
  fflush(g_out);
  return true;
}

void mfile_begin(uint32_t type, uint64_t length) {
  if (!g_out) return;
  struct eok_m_header h = {type, 0, length};
  fwrite(&h, sizeof h, 1, g_out);
}

void mfile_write(const void* data, size_t n) {
  if (g_out && n) fwrite(data, 1, n, g_out);
}

void mfile_end(void) {
  if (g_out) fflush(g_out);
}

void mfile_record(uint32_t type, const void* payload, size_t length) {
  mfile_begin(type, length);
  mfile_write(payload, length);
  mfile_end();
}

int mfile_fd(void) {
  return g_out ? fileno(g_out) : -1;
}
