/*
 * Connecting to a Ceph cluster, shared by the rados and rbd engines: which
 * ceph.conf is read, the keyring, the timeouts that bound every wait, the
 * pool and namespace, and the messages that say which cluster, pool and
 * user failed and what to do.  Compiled into each engine (no shared
 * library of ours between plugins).
 */
#ifndef IORIG_CEPH_CONN_H
#define IORIG_CEPH_CONN_H

#include <stdint.h>

#include <rados/librados.h>

#include <iorig/engine.h>

/* What the user chose; strings may be NULL (defaults apply). */
struct ceph_conn_params {
	const char *engine;       /* "rados" or "rbd", prefixes messages */
	const char *clustername;  /* NULL: "ceph" */
	const char *clientname;   /* "admin" or "client.admin"; NULL: admin */
	const char *conf;         /* NULL: $CEPH_CONF, then Ceph's search */
	const char *keyring;      /* NULL: what the conf says */
	const char *pool;         /* required */
	const char *nspace;       /* NULL or "": the default namespace */
	const char *target;       /* e.g. "image 'rbd/img'", for messages; may be NULL */
	uint64_t mount_timeout_ns; /* client_mount_timeout (and mon ops) */
	uint64_t op_timeout_ns;    /* rados_osd_op_timeout; 0 waits forever */
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

#endif
