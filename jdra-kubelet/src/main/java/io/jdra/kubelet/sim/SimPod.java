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

  final String uid;
  final String namespace;
  final String name;
  volatile State state = State.PENDING;
  volatile Map<String, Container> containers = new LinkedHashMap<>();
  volatile String podIp;
  volatile Instant startedAt;
  volatile Instant finishedAt;
  volatile int exitCode;

  /** Set by a timer when a run-to-completion pod's run duration has passed. */
  volatile boolean completionDue;

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
