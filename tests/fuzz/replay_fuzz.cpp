// libFuzzer target for game/play/replay.*: any bytes either decode into a replay that encodes
// back to exactly the same bytes, or are refused with a ReplayError whose message starts with
// the file's name. Anything else (another exception, a crash, an ASan/UBSan report) is a bug.
//
// Run by hand:  build/fuzz/tests/fuzz/replay_fuzz -max_total_time=60 NEW_DIR \
//                   tests/fuzz/corpus/replay
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "game/play/replay.hpp"

namespace play = quadpool::game::play;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  try {
    const play::Replay replay = play::decode_replay(bytes, "fuzz.qpr");
    const std::vector<std::byte> again = play::encode_replay(replay);
    if (again.size() != size || std::memcmp(again.data(), data, size) != 0) {
      std::fprintf(stderr, "replay_fuzz: a decoded replay does not encode to the same bytes\n");
      std::abort();
    }
  } catch (const play::ReplayError& e) {
    if (std::string(e.what()).rfind("fuzz.qpr: ", 0) != 0) {
      std::fprintf(stderr, "replay_fuzz: a message without the file's name: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
