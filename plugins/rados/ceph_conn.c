/*
 * What the rados and rbd engines share (ceph_conn.h), mostly connecting to
 * a Ceph cluster.  Every wait is bounded before rados_connect(): the mount
 * (monitor handshake and authentication), monitor commands such as the
 * pool lookup, and each OSD operation, so a wrong address or a dead cluster
 * turns into a message instead of a hung job.
 */
#define _GNU_SOURCE
#include "ceph_conn.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define NS_PER_S 1000000000ull

int ceph_expand_name(const char *name, uint32_t instance, char *out, size_t outlen)
{
	size_t n = 0;

	for (const char *c = name; *c; c++) {
		int w;

		if (c[0] == '%' && c[1] == 'j') {
			w = snprintf(out + n, outlen - n, "%u", instance);
			c++;
		} else {
			w = n + 1 < outlen ? (out[n] = *c, 1) : -1;
		}
		if (w < 0 || (size_t)w >= outlen - n)
			return -ENAMETOOLONG;
		n += (size_t)w;
	}
	if (n >= outlen)
		return -ENAMETOOLONG;
	out[n] = 0;
	return 0;
}

const char *ceph_io_hint(int err)
{
	switch (err) {
	case -ETIMEDOUT:
		return " (no answer within rados_osd_op_timeout: is an OSD down or the "
		       "cluster unhealthy? see ceph -s)";
	case -ENOSPC:
	case -EDQUOT:
		return " (the pool or cluster is full or over quota)";
	case -EACCES:
	case -EPERM:
		return " (the client's caps do not allow this: see ceph auth get)";
	case -ESHUTDOWN: /* Ceph's EBLOCKLISTED */
		return " (this client was blocklisted: see ceph osd blocklist ls)";
	default:
		return "";
	}
}

/* Whole seconds, rounded up: Ceph takes these timeouts as integers. */
static void secs(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%llu", (unsigned long long)((ns + NS_PER_S - 1) / NS_PER_S));
}

static int set(struct ceph_conn *c, const struct ceph_conn_params *p,
	       const struct iorig_host *host, struct iorig_job_handle *job,
	       const char *key, const char *value)
{
	int rc = rados_conf_set(c->cluster, key, value);

	if (rc < 0)
		host->set_error(job, rc, "%s: cannot set Ceph option %s=%s: %s", p->engine, key,
				value, strerror(-rc));
	return rc;
}

static int read_conf(struct ceph_conn *c, const struct ceph_conn_params *p,
		     const struct iorig_host *host, struct iorig_job_handle *job)
{
	const char *path = p->opts->conf && *p->opts->conf ? p->opts->conf : NULL;
	const char *from = "conf";
	const char *env = getenv("CEPH_CONF");
	int rc;

	if (!path && env && *env) {
		path = env;
		from = "CEPH_CONF";
	}
	if (!path) {
		/* Ceph's own search: /etc/ceph/$cluster.conf, ~/.ceph/..., ./... */
		rc = rados_conf_read_file(c->cluster, NULL);
		if (rc == -ENOENT) {
			host->set_error(job, rc,
				"%s: no Ceph configuration for cluster '%s': conf= is not set, "
				"CEPH_CONF is not set, and none of /etc/ceph/%s.conf, "
				"~/.ceph/%s.conf, ./%s.conf exists; set conf=/path/to/ceph.conf",
				p->engine, c->cluster_name, c->cluster_name, c->cluster_name,
				c->cluster_name);
			return rc;
		}
		if (rc < 0) {
			host->set_error(job, rc, "%s: cannot read the default Ceph configuration "
					"of cluster '%s': %s; set conf=/path/to/ceph.conf",
					p->engine, c->cluster_name, strerror(-rc));
			return rc;
		}
		snprintf(c->conf_used, sizeof(c->conf_used), "the default ceph.conf");
		return 0;
	}
	if (access(path, R_OK) < 0) {
		rc = -errno;
		host->set_error(job, rc, "%s: %s=%s cannot be read: %s; point %s at the "
				"cluster's ceph.conf", p->engine, from, path, strerror(-rc), from);
		return rc;
	}
	rc = rados_conf_read_file(c->cluster, path);
	if (rc < 0) {
		host->set_error(job, rc, "%s: %s=%s is not a valid Ceph configuration: %s",
				p->engine, from, path, strerror(-rc));
		return rc;
	}
	snprintf(c->conf_used, sizeof(c->conf_used), "%s", path);
	return 0;
}

static int configure(struct ceph_conn *c, const struct ceph_conn_params *p,
		     const struct iorig_host *host, struct iorig_job_handle *job)
{
	char v[32];
	int rc = read_conf(c, p, host, job);

	if (rc)
		return rc;
	/* CEPH_ARGS, as every Ceph tool honours it. */
	rc = rados_conf_parse_env(c->cluster, NULL);
	if (rc < 0) {
		host->set_error(job, rc, "%s: cannot parse CEPH_ARGS: %s", p->engine, strerror(-rc));
		return rc;
	}
	if (p->opts->keyring && *p->opts->keyring) {
		if (access(p->opts->keyring, R_OK) < 0) {
			rc = -errno;
			host->set_error(job, rc, "%s: keyring=%s cannot be read: %s", p->engine,
					p->opts->keyring, strerror(-rc));
			return rc;
		}
		if ((rc = set(c, p, host, job, "keyring", p->opts->keyring)))
			return rc;
	}
	secs(v, sizeof(v), p->opts->mount_timeout);
	if ((rc = set(c, p, host, job, "client_mount_timeout", v)) ||
	    (rc = set(c, p, host, job, "rados_mon_op_timeout", v)))
		return rc;
	secs(v, sizeof(v), p->opts->op_timeout);
	if ((rc = set(c, p, host, job, "rados_osd_op_timeout", v)))
		return rc;
	for (const char *const *kv = p->extra; kv && kv[0] && kv[1]; kv += 2)
		if ((rc = set(c, p, host, job, kv[0], kv[1])))
			return rc;
	return 0;
}

static void connect_error(struct ceph_conn *c, const struct ceph_conn_params *p,
			  const struct iorig_host *host, struct iorig_job_handle *job, int rc)
{
	char mon[256] = "";
	const char *t = p->target ? p->target : "";
	const char *sep = p->target ? ", for " : "";

	if (rados_conf_get(c->cluster, "mon_host", mon, sizeof(mon)) < 0 || !*mon)
		snprintf(mon, sizeof(mon), "(none set)");
	switch (rc) {
	case -ETIMEDOUT:
		host->set_error(job, rc,
			"%s: cannot connect to cluster '%s' as %s (conf %s, mon_host %s%s%s): "
			"no monitor answered within client_mount_timeout=%llus; is the cluster "
			"up and mon_host right? (ceph -s)",
			p->engine, c->cluster_name, c->client, c->conf_used, mon, sep, t,
			(unsigned long long)((p->opts->mount_timeout + NS_PER_S - 1) / NS_PER_S));
		break;
	case -EACCES:
	case -EPERM:
		host->set_error(job, rc,
			"%s: cluster '%s' refused %s (conf %s%s%s): authentication failed: %s; "
			"check keyring= (or the conf's keyring) holds this user's current key "
			"(ceph auth get %s)",
			p->engine, c->cluster_name, c->client, c->conf_used, sep, t,
			strerror(-rc), c->client);
		break;
	case -ENOENT:
		host->set_error(job, rc,
			"%s: cannot connect to cluster '%s' as %s (conf %s%s%s): no key for "
			"%s was found; set keyring=/path/to/keyring (or keyring in the conf)",
			p->engine, c->cluster_name, c->client, c->conf_used, sep, t, c->client);
		break;
	default:
		host->set_error(job, rc,
			"%s: cannot connect to cluster '%s' as %s (conf %s, mon_host %s%s%s): %s",
			p->engine, c->cluster_name, c->client, c->conf_used, mon, sep, t,
			strerror(-rc));
	}
}

int ceph_conn_open(struct ceph_conn *c, const struct ceph_conn_params *p,
		   const struct iorig_host *host, struct iorig_job_handle *job)
{
	const struct ceph_conn_opts *o = p->opts;
	const char *cl = o->clustername && *o->clustername ? o->clustername : "ceph";
	const char *who = o->clientname && *o->clientname ? o->clientname : "admin";
	int rc;

	memset(c, 0, sizeof(*c));
	snprintf(c->cluster_name, sizeof(c->cluster_name), "%s", cl);
	/* Like the ceph tools (and fio): "admin" means "client.admin". */
	snprintf(c->client, sizeof(c->client), "%s%s",
		 strncmp(who, "client.", 7) ? "client." : "", who);
	snprintf(c->pool, sizeof(c->pool), "%s", o->pool ? o->pool : "");
	if (!o->pool || !*o->pool) {
		host->set_error(job, -EINVAL, "%s: no pool: set pool= to the pool to use "
				"(rados lspools lists them)", p->engine);
		return -EINVAL;
	}
	rc = rados_create2(&c->cluster, c->cluster_name, c->client, 0);
	if (rc < 0) {
		host->set_error(job, rc, "%s: cannot create a handle for cluster '%s' as %s: %s",
				p->engine, c->cluster_name, c->client, strerror(-rc));
		c->cluster = NULL;
		return rc;
	}
	rc = configure(c, p, host, job);
	if (rc)
		goto fail;
	rc = rados_connect(c->cluster);
	if (rc < 0) {
		connect_error(c, p, host, job, rc);
		goto fail;
	}
	c->connected = 1;
	rc = rados_ioctx_create(c->cluster, c->pool, &c->ioctx);
	if (rc < 0) {
		if (rc == -ENOENT)
			host->set_error(job, rc,
				"%s: pool '%s' does not exist in cluster '%s' (conf %s)%s%s; "
				"rados lspools lists the pools (create one with ceph osd pool create)",
				p->engine, c->pool, c->cluster_name, c->conf_used,
				p->target ? ", needed for " : "", p->target ? p->target : "");
		else
			host->set_error(job, rc, "%s: cannot open pool '%s' of cluster '%s': %s%s",
					p->engine, c->pool, c->cluster_name, strerror(-rc),
					ceph_io_hint(rc));
		c->ioctx = NULL;
		goto fail;
	}
	if (o->nspace && *o->nspace)
		rados_ioctx_set_namespace(c->ioctx, o->nspace);
	snprintf(c->where, sizeof(c->where), "cluster '%s', pool '%s'%s%s%s", c->cluster_name,
		 c->pool, o->nspace && *o->nspace ? ", namespace '" : "",
		 o->nspace && *o->nspace ? o->nspace : "", o->nspace && *o->nspace ? "'" : "");
	return 0;
fail:
	ceph_conn_close(c);
	return rc;
}

void ceph_conn_close(struct ceph_conn *c)
{
	if (c->ioctx)
		rados_ioctx_destroy(c->ioctx);
	c->ioctx = NULL;
	if (c->cluster)
		rados_shutdown(c->cluster);
	c->cluster = NULL;
	c->connected = 0;
}

int ceph_eventfd_open(const char *engine, const struct iorig_host *host,
		      struct iorig_job_handle *job)
{
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

	if (fd < 0) {
		fd = -errno;
		host->set_error(job, fd, "%s: eventfd: %s", engine, strerror(-fd));
	}
	return fd;
}

void ceph_eventfd_wait(int efd, uint64_t ns)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };
	uint64_t ms = (ns + 999999) / 1000000;
	uint64_t v;

	if (poll(&pfd, 1, ms > INT_MAX ? INT_MAX : (int)ms) > 0 &&
	    read(efd, &v, sizeof(v)) < 0) {
		/* EAGAIN: another wake-up took it; nothing to drain. */
	}
}

int ceph_reap_time_left(uint64_t now, uint64_t timeout_ns, uint64_t *deadline)
{
	if (!*deadline) {
		*deadline = timeout_ns == UINT64_MAX || now + timeout_ns < now ? UINT64_MAX
									: now + timeout_ns;
		return 1;
	}
	return now < *deadline;
}
