package io.jdra.kubelet.dra.state;

import java.io.IOException;
import java.util.List;

/**
 * Durable store of the claim info cache (upstream state.Checkpointer). Thread-safe.
 *
 * <p>A stored state survives a process crash at any point: after {@link #store} returns, the new
 * state is what a restarted kubelet reads (its content synced to disk before it replaced the old
 * one); if the process dies during {@code store}, the previous state is read back.
 */
public interface Checkpointer {
  /**
   * The stored entries, or an empty list (after writing an empty checkpoint) when none exists.
   *
   * @throws CorruptCheckpointException when the file exists but cannot be trusted; callers must not
   *     continue with an empty state, because prepared claims would then never be unprepared
   */
  List<ClaimInfoState> getOrCreate() throws IOException;

  /** Replaces the stored entries. */
  void store(List<ClaimInfoState> entries) throws IOException;
}
