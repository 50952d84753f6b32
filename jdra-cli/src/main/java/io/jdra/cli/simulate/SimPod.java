package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** One simulated pod's life. Mutable, owned by the {@link Simulator}'s thread. */
final class SimPod {
  enum Phase {
    PENDING,
    RUNNING,
    COMPLETED,
    DELETED
  }

  final int template;
  final String name;
  final String uid;
  final Instant created;
  final Duration runFor; // null: until the end
  final List<String> claimKeys;
  Pod pod;
  Phase phase = Phase.PENDING;
  Instant bound;
  String node;
  String lastMessage;

  /** Its completion and deletion events still to come (the simulator's). */
  final List<Object> scheduled = new java.util.ArrayList<>();

  SimPod(
      int template,
      String name,
      String uid,
      Instant created,
      Duration runFor,
      List<String> claimKeys,
      Pod pod) {
    this.template = template;
    this.name = name;
    this.uid = uid;
    this.created = created;
    this.runFor = runFor;
    this.claimKeys = List.copyOf(claimKeys);
    this.pod = pod;
  }
}
