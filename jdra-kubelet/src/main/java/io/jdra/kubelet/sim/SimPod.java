package io.jdra.kubelet.sim;

import io.jdra.runtime.clock.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The simulated runtime's record of one pod (by UID): its containers and where it is in its life.
 * Only the pod's sync (one at a time per pod, guaranteed by the work queue) changes it; log reads
 * from the HTTP server see a consistent snapshot through the volatile fields.
 */
final class SimPod {
  enum State {
    /** Claims not prepared or containers not created yet. */
    PENDING,
    RUNNING,
    /** Containers exited (run-to-completion or after deletion); claims may still need unprepare. */
    TERMINATED
  }

  /** A started container: its environment and what it printed. */
  record Container(String name, Map<String, String> env, String output, Instant startedAt) {}

  /** How a container instance ended. */
  record Terminated(int exitCode, String reason, Instant startedAt, Instant finishedAt) {}

  /**
   * One regular container's life (replaced as a whole): the current instance started at {@code
   * startedAt} and, when {@code exitAt} is set, exits on its own then with {@code exitCode}; once
   * it has exited, {@code terminated} says how, and {@code restartAt} is set while it waits in
   * back-off to be started again ({@code restartPolicy}). {@code last} is the previous instance's
   * end ({@code lastState}).
   */
  record Run(
      int restartCount,
      Instant startedAt,
      Instant exitAt,
      int exitCode,
      Terminated terminated,
      Terminated last,
      Instant restartAt) {
    boolean running() {
      return terminated == null;
    }

    boolean waitingToRestart() {
      return terminated != null && restartAt != null;
    }

    boolean finished() {
      return terminated != null && restartAt == null;
    }

    Run exited(Instant at, int code) {
      String reason = code == 0 ? "Completed" : "Error";
      return new Run(
          restartCount,
          startedAt,
          null,
          code,
          new Terminated(code, reason, startedAt, at),
          last,
          null);
    }

    Run restartAt(Instant at) {
      return new Run(restartCount, startedAt, null, exitCode, terminated, last, at);
    }

    Run restarted(Instant now, Instant exitAt, int exitCode) {
      return new Run(restartCount + 1, now, exitAt, exitCode, null, terminated, null);
    }
  }

  final String uid;
  final String namespace;
  final String name;
  volatile State state = State.PENDING;
  volatile Map<String, Container> containers = new LinkedHashMap<>();

  /** Regular containers' lives, by name (init containers complete when the pod starts). */
  volatile Map<String, Run> runs = new LinkedHashMap<>();

  volatile String podIp;
  volatile Instant startedAt;
  volatile Instant finishedAt;
  volatile int exitCode;

  /** When a terminating pod's containers are gone (SIGTERM handled or killed at grace). */
  volatile Instant killAt;

  volatile boolean unprepared;
  volatile boolean statusDirty;
  Clock.Timer timer;

  SimPod(String uid, String namespace, String name) {
    this.uid = uid;
    this.namespace = namespace;
    this.name = name;
  }

  void cancelTimer() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
  }
}
