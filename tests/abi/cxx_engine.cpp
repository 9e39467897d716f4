// abi_cxx: an engine written in C++, to prove <iorig/engine.h> works there:
// it compiles with -std=c++17 and -std=c++20 under -Wall -Wextra -pedantic
// -Werror, IORIG_ENGINE_DEFINE exports the entry unmangled, and the core
// loads it.  C++17 has no designated initializers, so there the descriptor
// is positional, in field order (IORIG_ENGINE_HEADER is positional too);
// C++20 designates, naming every member.
#include <cerrno>
#include <cstddef>
#include <cstdint>

#include <iorig/engine.h>

namespace {

struct cxx_opts {
	std::int64_t depth;
	int fast;
};


const iorig_option cxx_options[] = {
	{ "depth", IORIG_OPT_INT, offsetof(cxx_opts, depth), "4", 1, 64, nullptr, "a number" },
	{ "fast", IORIG_OPT_BOOL, offsetof(cxx_opts, fast), "0", 0, 0, nullptr, "a flag" },
	IORIG_OPTION_END,
};

extern "C" int cxx_queue(void *, iorig_io *io)
{
	io->result = static_cast<std::int64_t>(io->len);
	return IORIG_Q_COMPLETED;
}

#if __cplusplus >= 202002L
const iorig_engine cxx_engine = {
	IORIG_ENGINE_HEADER,
	.name = "abi_cxx",
	.version = "1.0",
	.description = "C++ test engine (diskless)",
	.caps = IORIG_CAP_DISKLESS,
	.options = cxx_options,
	.options_size = sizeof(cxx_opts),
	// g++ -Wextra wants every member named in C++20 designated initializers.
	.io_priv_size = 0,
	.init = nullptr,
	.cleanup = nullptr,
	.open_file = nullptr,
	.close_file = nullptr,
	.queue = cxx_queue,
	.commit = nullptr,
	.reap = nullptr,
	.fsync = nullptr,
	.invalidate = nullptr,
	.get_size = nullptr,
};
#else
const iorig_engine cxx_engine = {
	IORIG_ENGINE_HEADER,
	"abi_cxx", "1.0", "C++ test engine (diskless)", IORIG_CAP_DISKLESS,
	cxx_options, sizeof(cxx_opts), 0,
	nullptr, nullptr, nullptr, nullptr, cxx_queue, nullptr, nullptr, nullptr,
	nullptr, nullptr,
};
#endif

} // namespace

IORIG_ENGINE_DEFINE(cxx_engine)
