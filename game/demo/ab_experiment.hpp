#pragma once
/// The A/B experiment: the same seeded scene run for kLegFrames ticked frames per leg in the
/// order pool, new-delete, pool, new-delete (alternating evens out drift in machine load),
/// then the two allocators' tick and frame times compared. The App applies what it asks for
/// (a fresh scene on the leg's allocator) and restores the controls it saved when it ends.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "game/demo/controls.hpp"
#include "game/demo/frame_stats.hpp"
#include "game/percentiles.hpp"

namespace quadpool::game::demo {

struct AbResult {
  std::size_t sprites = 0;
  std::uint64_t seed = 0;
  Percentiles frame_ms[2], tick_ms[2];  // [0] pool, [1] new-delete
};

class AbExperiment {
 public:
  static constexpr int kLegs = 4;
  static constexpr std::uint64_t kLegFrames = 150;

  /// What the App does after record().
  enum class Next { Continue, NewLeg, Done };

  /// Starts a run on a scene of `sprites` from `seed`, saving `controls` and `allocator` to
  /// restore at the end. The caller then resets the scene on leg_allocator().
  void start(std::size_t sprites, std::uint64_t seed, const Controls& controls,
             AllocatorKind allocator);
  /// Records one frame. NewLeg: reset the scene on leg_allocator(). Done: result() holds the
  /// comparison; restore saved_controls() and saved_allocator().
  Next record(const FrameSample& sample);

  bool running() const noexcept { return running_; }
  /// The allocator of the current leg.
  AllocatorKind leg_allocator() const noexcept {
    return leg_ % 2 == 0 ? AllocatorKind::Pool : AllocatorKind::NewDelete;
  }
  /// Fraction of the run done, 0..1.
  float progress() const noexcept;
  const std::optional<AbResult>& result() const noexcept { return result_; }
  const Controls& saved_controls() const noexcept { return saved_controls_; }
  AllocatorKind saved_allocator() const noexcept { return saved_allocator_; }

 private:
  bool running_ = false;
  int leg_ = 0;
  std::uint64_t frames_in_leg_ = 0;
  std::size_t sprites_ = 0;
  std::uint64_t seed_ = 0;
  std::vector<double> frame_ms_[2], tick_ms_[2];  // [0] pool, [1] new-delete
  std::optional<AbResult> result_;
  Controls saved_controls_{};
  AllocatorKind saved_allocator_ = AllocatorKind::Pool;
};

}  // namespace quadpool::game::demo
