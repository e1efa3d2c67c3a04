#pragma once
/// The entities of play besides the field: shots, debris, sparks, explosions, threats, hunters and
/// missiles. Each has a real constructor and destructor, and each type lives in its own
/// EntityStore (a SlotPool<T>: pooled slots in Pool mode, new/delete in NewDelete mode). An
/// entity that refers to another holds its Handle, never a pointer: a missile's target may die
/// first, and its slot may hold another hunter by then. They are plain movers: the rules
/// (play_world.cpp) decide when they are born and die; advance() only moves them and says whether
/// they expired.
///
/// Every entity counts its own construction and destruction in the LifeTally its store hands
/// it, so a test (and the overlay) can check that each constructor and each destructor ran
/// exactly once, whichever allocator the object came from.

#include <cstdint>

#include "engine/memory/handle.hpp"
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

/// An enemy ship: chases the ship, thrusting toward where it will be, until shot down or until
/// it rams the ship.
class Hunter : public Tallied {
 public:
  Hunter(LifeTally& tally, Vec2 position, Vec2 velocity, float radius, int hits_left) noexcept
      : Tallied(tally), motion{position, velocity, 0}, radius(radius), hits_left(hits_left) {}
  Motion motion;  ///< ticks_left unused: a hunter lives until it is shot down or rams the ship
  float radius;
  int hits_left;     ///< shots it still takes; a missile takes it down whatever is left
  bool hit = false;  ///< shot down (or rammed the ship, when `rammed`) this tick
  bool rammed = false;
};

/// A homing missile: locked onto a hunter by handle, it turns toward it each tick. When the
/// handle goes stale (the hunter died first) it locks onto the nearest hunter instead.
class Missile : public Tallied {
 public:
  Missile(LifeTally& tally, Vec2 position, Vec2 velocity, std::int32_t ticks,
          memory::Handle<Hunter> target) noexcept
      : Tallied(tally), motion{position, velocity, ticks}, target(target) {}
  Motion motion;
  memory::Handle<Hunter> target;  ///< null: no hunter about when it last looked
};

}  // namespace quadpool::game::play
