/*
 * check_driver: the conformance checker as a program, for the SDK tests
 * (the same code `iorig engines --check` runs), with the parameters the
 * command line does not expose.
 *
 *   check_driver [--dir DIR] [--depth N] [--timeout S] [-o KEY=VALUE]... ENGINE
 *
 * ENGINE is a .so path or a name on $IORIG_PLUGIN_PATH.  Exit status: what
 * check_engine_path() returns (0 pass, 1 fail, 2 unusable), 2 on usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_engine.h"
#include "engine.h"

int main(int argc, char **argv)
{
	struct check_params cp = { 0 };
	const char *kv[2 * 32 + 1] = { NULL };
	struct engine_path path;
	const char *name = NULL;
	size_t nkv = 0;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			cp.dir = argv[++i];
		} else if (!strcmp(argv[i], "--depth") && i + 1 < argc) {
			cp.depth = (unsigned)atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			cp.timeout_s = (unsigned)atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc && nkv < 2 * 32) {
			char *eq = strchr(argv[++i], '=');

			if (!eq) {
				fprintf(stderr, "check_driver: -o wants KEY=VALUE, got %s\n", argv[i]);
				return 2;
			}
			*eq = '\0';
			kv[nkv++] = argv[i];
			kv[nkv++] = eq + 1;
		} else if (argv[i][0] != '-' && !name) {
			name = argv[i];
		} else {
			fprintf(stderr, "usage: check_driver [--dir DIR] [--depth N] [--timeout S] "
				"[-o KEY=VALUE]... ENGINE\n");
			return 2;
		}
	}
	if (!name) {
		fprintf(stderr, "check_driver: no engine given\n");
		return 2;
	}
	cp.kv = nkv ? kv : NULL;
	if (engine_path_init(&path, NULL, 0))
		return 2;
	rc = check_engine_path(stdout, &path, name, &cp);
	engine_cache_free();
	engine_path_free(&path);
	return rc;
}
