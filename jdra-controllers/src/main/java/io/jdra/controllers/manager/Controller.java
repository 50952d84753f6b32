package io.jdra.controllers.manager;

import io.jdra.runtime.Ctx;

/**
 * A controller the {@link ControllerManager} runs. Created before the shared informers start (so it
 * can add indexes and handlers), run once they have synced.
 */
@FunctionalInterface
public interface Controller {
  /**
   * Runs until {@code ctx} is cancelled, then stops taking work, finishes what is in progress and
   * returns. Must not throw for errors of single objects (those are retried); a throw means the
   * controller cannot run at all.
   */
  void run(Ctx ctx) throws Exception;
}
