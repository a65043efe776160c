#ifndef DASCH_CHDB_SHIM_H
#define DASCH_CHDB_SHIM_H
#include <stdlib.h>
#include <stdint.h>
#include <stddef.h>

typedef struct chdb_connection_ { void *internal_data; } *chdb_connection;
typedef struct chdb_result_ { void *internal_data; } chdb_result;
typedef struct chdb_insert_stream_ { void *internal_data; } *chdb_insert_stream;

const char *dasch_load(const char *path, const char *malloc_conf);
chdb_connection *dasch_connect(int argc, char **argv);
void dasch_close_conn(chdb_connection *c);
chdb_result *dasch_query(chdb_connection *c, const char *q, size_t ql, const char *f, size_t fl,
	const char *const *pn, const size_t *pnl, const char *const *pv, const size_t *pvl, size_t n);
void dasch_destroy_result(chdb_result *r);
char *dasch_result_buffer(chdb_result *r);
size_t dasch_result_length(chdb_result *r);
const char *dasch_result_error(chdb_result *r);
uint64_t dasch_result_rows_written(chdb_result *r);
chdb_insert_stream dasch_stream_insert(chdb_connection *c, const char *q, size_t ql, const char *f, size_t fl);
int dasch_stream_append(chdb_insert_stream s, const void *d, size_t n);
chdb_result *dasch_stream_done(chdb_insert_stream s);
const char *dasch_stream_insert_error(chdb_insert_stream s);
void dasch_stream_cancel_insert(chdb_insert_stream s);
void dasch_destroy_insert_stream(chdb_insert_stream s);
int dasch_shutdown(void);
const char *dasch_version(void);
chdb_result *dasch_query_cmdline(int argc, char **argv);
#endif
