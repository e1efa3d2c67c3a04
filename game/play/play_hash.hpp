#pragma once
/// The state hash of a game: the field's (game::state_hash of the rocks) and everything play
/// adds: the ship, the score, the wave, the lives, every live entity of every type in its
/// store's order, and the rock changes waiting for the next tick. Two worlds that hash equal
/// after a tick play on identically; a replay checks it.

#include <cstdint>

namespace quadpool::game::play {

class PlayWorld;

/// 64-bit FNV-1a over the bit patterns of the state, in a fixed order and little-endian by
/// construction, so equal states hash equal on every platform. O(rocks + entities).
std::uint64_t play_state_hash(const PlayWorld& world) noexcept;

}  // namespace quadpool::game::play
