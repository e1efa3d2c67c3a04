#pragma once
/// The entities of play besides the field: shots, debris, sparks, explosions and threats. Each has
/// a real constructor and destructor, and each type lives in its own EntityStore (an ObjectPool<T>
/// in Pool mode, new/delete in NewDelete mode). They are plain movers: the rules (play_world.cpp)
/// decide when they are born and die; advance() only moves them and says whether they expired.
///
/// Every entity counts its own construction and destruction in the LifeTally its store hands
/// it, so a test (and the overlay) can check that each constructor and each destructor ran
/// exactly once, whichever allocator the object came from.

#include <cstdint>

#include "game/play/vec2.hpp"

namespace quadpool::game::play {

/// Constructor and destructor calls of one entity type.
struct LifeTally {
  std::uint64_t constructed = 0;
  std::uint64_t destroyed = 0;
};

/// The base of every entity: counts its construction and destruction. Not copyable: an entity
/// is created in its store and dies there.
class Tallied {
 public:
  Tallied(const Tallied&) = delete;
  Tallied& operator=(const Tallied&) = delete;

 protected:
  explicit Tallied(LifeTally& tally) noexcept : tally_(&tally) { ++tally.constructed; }
  ~Tallied() { ++tally_->destroyed; }

 private:
  LifeTally* tally_;
};

/// Position, velocity and the ticks left to live: what every entity moves by.
struct Motion {
  Vec2 position;
  Vec2 velocity;
  std::int32_t ticks_left;

  /// One tick: moves, slows the velocity by `drag` (1 keeps it), counts down. False once the
  /// time is up.
  bool advance(float drag) noexcept {
    position = position + velocity;
    velocity = velocity * drag;
    return --ticks_left > 0;
  }
};

/// A shot from the ship: flies straight until it hits a rock, leaves the world or expires.
class Shot : public Tallied {
 public:
  Shot(LifeTally& tally, Vec2 position, Vec2 velocity, std::int32_t ticks) noexcept
      : Tallied(tally), motion{position, velocity, ticks} {}
  Motion motion;
};

/// A chunk of a burst rock: drifts, slows down, fades.
class Debris : public Tallied {
 public:
  Debris(LifeTally& tally, Vec2 position, Vec2 velocity, std::int32_t ticks, float size) noexcept
      : Tallied(tally), motion{position, velocity, ticks}, size(size) {}
  Motion motion;
  float size;  ///< drawn radius, world units
};

/// A spark of a hit: fast, short-lived, slows quickly.
class Spark : public Tallied {
 public:
  Spark(LifeTally& tally, Vec2 position, Vec2 velocity, std::int32_t ticks,
        std::uint8_t hue) noexcept
      : Tallied(tally), motion{position, velocity, ticks}, hue(hue) {}
  Motion motion;
  std::uint8_t hue;  ///< which of the sprite kinds' colours it takes
};

/// A blast where a rock burst: a ring that grows to `max_radius` over its life. Its radius at
/// birth is what the rules query the tree with (small rocks inside burst too).
class Explosion : public Tallied {
 public:
  Explosion(LifeTally& tally, Vec2 centre, float max_radius, std::int32_t ticks) noexcept
      : Tallied(tally), centre(centre), max_radius(max_radius), ticks_left(ticks),
        lifetime(ticks) {}
  Vec2 centre;
  float max_radius;
  std::int32_t ticks_left;
  std::int32_t lifetime;

  bool advance() noexcept { return --ticks_left > 0; }
  /// The ring's radius now: grows linearly from 0 to max_radius.
  float radius() const noexcept {
    return max_radius * static_cast<float>(lifetime - ticks_left) / static_cast<float>(lifetime);
  }
};

/// A rock a wave sends at the ship: flies at its speed (no drag), turning slowly toward the
/// ship (the rules steer it), until shot or until it reaches the ship.
class Threat : public Tallied {
 public:
  Threat(LifeTally& tally, Vec2 position, Vec2 velocity, float radius, std::uint8_t kind) noexcept
      : Tallied(tally), motion{position, velocity, 0}, radius(radius), kind(kind) {}
  Motion motion;  ///< ticks_left unused: a threat lives until it is broken
  float radius;
  std::uint8_t kind;  ///< which sprite look it takes
  bool hit = false;   ///< broken this tick (by a shot when shot_direction is set)
  Vec2 shot_direction;
};

}  // namespace quadpool::game::play
