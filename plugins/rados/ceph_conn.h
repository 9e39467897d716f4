/*
 * What the rados and rbd engines share.  Connecting to a Ceph cluster:
 * the options that choose it (and their table rows), which ceph.conf is
 * read, the keyring, the timeouts that bound every wait, the pool and
 * namespace, and the messages that say which cluster, pool and user failed
 * and what to do.  Then names with %j, hints for I/O errors, and the
 * eventfd the worker sleeps on while librados/librbd finish its I/O.
 * Compiled into each engine (no shared library of ours between plugins).
 */
#ifndef IORIG_CEPH_CONN_H
#define IORIG_CEPH_CONN_H

#include <stddef.h>
#include <stdint.h>

#include <rados/librados.h>

#include <iorig/engine.h>

/*
 * The connection options, a member of each engine's option struct; strings
 * may be NULL (defaults apply).
 */
struct ceph_conn_opts {
	const char *clustername;  /* NULL: "ceph" */
	const char *clientname;   /* "admin" or "client.admin"; NULL: admin */
	const char *conf;         /* NULL: $CEPH_CONF, then Ceph's search */
	const char *keyring;      /* NULL: what the conf says */
	const char *pool;         /* required */
	const char *nspace;       /* NULL or "": the default namespace */
	uint64_t mount_timeout;   /* ns: client_mount_timeout (and mon ops) */
	uint64_t op_timeout;      /* ns: rados_osd_op_timeout; 0 waits forever */
};

#define CEPH_NS_PER_S 1000000000ll
#define CEPH_DAY_NS (86400 * CEPH_NS_PER_S)

/*
 * Option table rows of the struct ceph_conn_opts member m of the engine's
 * option struct type: which cluster and user (first in the table), and the
 * timeouts (last).  pool and namespace are each engine's own rows: their
 * defaults and help differ.
 */
#define CEPH_CONN_OPTIONS(type, m) \
	{ "clustername", IORIG_OPT_STRING, offsetof(type, m.clustername), "ceph", 0, 0, NULL, \
	  "Ceph cluster name (selects the default conf /etc/ceph/<name>.conf)" }, \
	{ "clientname", IORIG_OPT_STRING, offsetof(type, m.clientname), "admin", 0, 0, NULL, \
	  "Ceph user to connect as ('admin' and 'client.admin' are the same)" }, \
	{ "conf", IORIG_OPT_STRING, offsetof(type, m.conf), NULL, 0, 0, NULL, \
	  "path of ceph.conf; default $CEPH_CONF, then /etc/ceph/<cluster>.conf, " \
	  "~/.ceph/<cluster>.conf, ./<cluster>.conf" }, \
	{ "keyring", IORIG_OPT_STRING, offsetof(type, m.keyring), NULL, 0, 0, NULL, \
	  "keyring file holding the user's key; default: the conf's keyring setting" }

#define CEPH_TIMEOUT_OPTIONS(type, m) \
	{ "client_mount_timeout", IORIG_OPT_DURATION, offsetof(type, m.mount_timeout), "30s", \
	  CEPH_NS_PER_S, CEPH_DAY_NS, NULL, \
	  "give up connecting (monitors, authentication, pool lookup) after this; " \
	  "whole seconds" }, \
	{ "rados_osd_op_timeout", IORIG_OPT_DURATION, offsetof(type, m.op_timeout), "30s", 0, \
	  CEPH_DAY_NS, NULL, "fail an I/O its OSD has not answered after this (ETIMEDOUT); " \
	  "0 waits forever; whole seconds" }

/* What ceph_conn_open() connects with. */
struct ceph_conn_params {
	const char *engine;       /* "rados" or "rbd", prefixes messages */
	const struct ceph_conn_opts *opts;
	const char *target;       /* e.g. "image 'rbd/img'", for messages; may be NULL */
	const char *const *extra; /* more conf settings: key, value, ..., NULL */
};

struct ceph_conn {
	rados_t cluster;
	rados_ioctx_t ioctx;
	int connected;
	char cluster_name[64];
	char client[128];         /* "client.admin" */
	char pool[256];
	char conf_used[512];      /* which file was read, for messages */
	char where[512];          /* "cluster 'ceph' (conf ...), pool 'rbd'" */
};

/*
 * Create, configure, connect and open the pool.  0, or -errno after
 * host->set_error() with a message naming cluster, pool, user and target.
 * On failure everything is released already.
 */
int ceph_conn_open(struct ceph_conn *c, const struct ceph_conn_params *p,
		   const struct iorig_host *host, struct iorig_job_handle *job);
void ceph_conn_close(struct ceph_conn *c);

/*
 * Copy name into out (outlen bytes) with every "%j" replaced by instance.
 * -ENAMETOOLONG when it does not fit.
 */
int ceph_expand_name(const char *name, uint32_t instance, char *out, size_t outlen);

/* "timed out after rados_osd_op_timeout=30s: ..." style hint for an I/O error. */
const char *ceph_io_hint(int err);

/*
 * A non-blocking eventfd for the engine's completions: the fd, or -errno
 * after host->set_error().
 */
int ceph_eventfd_open(const char *engine, const struct iorig_host *host,
		      struct iorig_job_handle *job);

/* Sleep until efd is written, at most ns, and drain it. */
void ceph_eventfd_wait(int efd, uint64_t ns);

/*
 * Asked by a reap that found too little, before it waits: 0 when its time
 * is up.  The first call (*deadline 0) sets *deadline from now and
 * timeout_ns (UINT64_MAX: no limit).
 */
int ceph_reap_time_left(uint64_t now, uint64_t timeout_ns, uint64_t *deadline);

#endif
