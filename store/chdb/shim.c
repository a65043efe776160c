// C side of the binding: resolves libchdb.so symbols with dlsym and calls
// through them, so the Go build never links against the library.
#include "shim.h"
#include <dlfcn.h>

// Function pointers resolved once by dasch_load: the library is process-wide
// by nature (one engine per process), so these are too.
static void *dasch_h;
static void (*p_set_signal_handlers_enabled)(int);
static chdb_connection *(*p_connect)(int, char **);
static void (*p_close_conn)(chdb_connection *);
static chdb_result *(*p_query_with_params_n)(chdb_connection, const char *, size_t, const char *, size_t,
	const char *const *, const size_t *, const char *const *, const size_t *, size_t);
static void (*p_destroy_query_result)(chdb_result *);
static char *(*p_result_buffer)(chdb_result *);
static size_t (*p_result_length)(chdb_result *);
static const char *(*p_result_error)(chdb_result *);
static uint64_t (*p_result_rows_written)(chdb_result *);
static chdb_insert_stream (*p_stream_insert_n)(chdb_connection, const char *, size_t, const char *, size_t);
static int (*p_stream_append)(chdb_insert_stream, const void *, size_t);
static chdb_result *(*p_stream_done)(chdb_insert_stream);
static const char *(*p_stream_insert_error)(chdb_insert_stream);
static void (*p_stream_cancel_insert)(chdb_insert_stream);
static void (*p_destroy_insert_stream)(chdb_insert_stream);
static int (*p_shutdown)(void);
static const char *(*p_version)(void);
static chdb_result *(*p_query_cmdline)(int, char **);

#define DASCH_SYM(var, name) do { *(void **)(&var) = dlsym(h, name); if (!var) { dlclose(h); return "missing symbol " name; } } while (0)

const char *dasch_load(const char *path, const char *malloc_conf) {
	if (dasch_h) return NULL;
	// The engine's allocator reads its options once, when the library's
	// first allocation initializes it: set them before dlopen. Overwrite 0:
	// a JE_MALLOC_CONF in the environment wins.
	if (malloc_conf && *malloc_conf) setenv("JE_MALLOC_CONF", malloc_conf, 0);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) return dlerror();
	DASCH_SYM(p_set_signal_handlers_enabled, "chdb_set_signal_handlers_enabled");
	DASCH_SYM(p_connect, "chdb_connect");
	DASCH_SYM(p_close_conn, "chdb_close_conn");
	DASCH_SYM(p_query_with_params_n, "chdb_query_with_params_n");
	DASCH_SYM(p_destroy_query_result, "chdb_destroy_query_result");
	DASCH_SYM(p_result_buffer, "chdb_result_buffer");
	DASCH_SYM(p_result_length, "chdb_result_length");
	DASCH_SYM(p_result_error, "chdb_result_error");
	DASCH_SYM(p_result_rows_written, "chdb_result_rows_written");
	DASCH_SYM(p_stream_insert_n, "chdb_stream_insert_n");
	DASCH_SYM(p_stream_append, "chdb_stream_append");
	DASCH_SYM(p_stream_done, "chdb_stream_done");
	DASCH_SYM(p_stream_insert_error, "chdb_stream_insert_error");
	DASCH_SYM(p_stream_cancel_insert, "chdb_stream_cancel_insert");
	DASCH_SYM(p_destroy_insert_stream, "chdb_destroy_insert_stream");
	DASCH_SYM(p_shutdown, "chdb_shutdown");
	DASCH_SYM(p_version, "chdb_version");
	DASCH_SYM(p_query_cmdline, "chdb_query_cmdline");
	// Without this, the engine's handlers catch SIGSEGV/SIGBUS that the Go
	// runtime uses for nil checks and turn Go panics into crashes.
	p_set_signal_handlers_enabled(0);
	dasch_h = h;
	return NULL;
}

chdb_connection *dasch_connect(int argc, char **argv) { return p_connect(argc, argv); }
void dasch_close_conn(chdb_connection *c) { p_close_conn(c); }
chdb_result *dasch_query(chdb_connection *c, const char *q, size_t ql, const char *f, size_t fl,
	const char *const *pn, const size_t *pnl, const char *const *pv, const size_t *pvl, size_t n) {
	return p_query_with_params_n(*c, q, ql, f, fl, pn, pnl, pv, pvl, n);
}
void dasch_destroy_result(chdb_result *r) { p_destroy_query_result(r); }
char *dasch_result_buffer(chdb_result *r) { return p_result_buffer(r); }
size_t dasch_result_length(chdb_result *r) { return p_result_length(r); }
const char *dasch_result_error(chdb_result *r) { return p_result_error(r); }
uint64_t dasch_result_rows_written(chdb_result *r) { return p_result_rows_written(r); }
chdb_insert_stream dasch_stream_insert(chdb_connection *c, const char *q, size_t ql, const char *f, size_t fl) {
	return p_stream_insert_n(*c, q, ql, f, fl);
}
int dasch_stream_append(chdb_insert_stream s, const void *d, size_t n) { return p_stream_append(s, d, n); }
chdb_result *dasch_stream_done(chdb_insert_stream s) { return p_stream_done(s); }
const char *dasch_stream_insert_error(chdb_insert_stream s) { return p_stream_insert_error(s); }
void dasch_stream_cancel_insert(chdb_insert_stream s) { p_stream_cancel_insert(s); }
void dasch_destroy_insert_stream(chdb_insert_stream s) { p_destroy_insert_stream(s); }
int dasch_shutdown(void) { return dasch_h ? p_shutdown() : 0; }
const char *dasch_version(void) { return p_version(); }
chdb_result *dasch_query_cmdline(int argc, char **argv) { return p_query_cmdline(argc, argv); }
