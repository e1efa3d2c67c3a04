#include "game/play/entity_stores.hpp"

namespace quadpool::game::play {

const char* entity_type_name(EntityType type) noexcept {
  switch (type) {
    case EntityType::Shots:
      return "shots";
    case EntityType::Debris:
      return "debris";
    case EntityType::Sparks:
      return "sparks";
    case EntityType::Explosions:
      return "explosions";
    case EntityType::Threats:
      return "threats";
  }
  return "unknown";
}

}  // namespace quadpool::game::play
