package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.client.ApiRequests;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * createPods with {@code steadyState}, as upstream's createPodsSteadily: create a batch of {@code
 * count} pods; each time {@code count} more have been scheduled, delete every pod of the namespace
 * (grace period 0, background propagation) and create the next batch; stop after {@code duration},
 * counted from before the first batch is created, as upstream's context timeout. The cluster thus
 * stays at the utilisation the earlier ops set up.
 */
final class SteadyState {
  /** Creates one batch of the op's pods. */
  interface BatchCreator {
    /** Returns the UIDs of the pods created. */
    List<String> create(Op.CreatePods op) throws Exception;
  }

  /** Upstream's delete of a batch: at once, dependents in the background. */
  private static final DeleteOptions DELETE_NOW =
      new DeleteOptionsBuilder()
          .withGracePeriodSeconds(0L)
          .withPropagationPolicy("Background")
          .build();

  /**
   * The batch's delete, as the DSL sends it but with the answer (the list of every deleted pod) not
   * decoded: nobody reads it, as upstream's createPodsSteadily does not, and decoding it was bench
   * work on the measured CPU.
   */
  private final ApiRequests.Resource<Void> pods;

  private final PodWatch watch;
  private final Op.CreatePods op;
  private final BatchCreator creator;
  private final PrintWriter progress;

  SteadyState(
      KubernetesClient c,
      PodWatch watch,
      Op.CreatePods op,
      BatchCreator creator,
      PrintWriter progress) {
    this.pods = new ApiRequests(c).resource("v1", "pods", Void.class);
    this.watch = watch;
    this.op = op;
    this.creator = creator;
    this.progress = progress;
  }

  /** Runs for the op's duration; returns the UIDs of the last batch, which is left in place. */
  List<String> run() throws Exception {
    BlockingQueue<Pod> scheduled = new LinkedBlockingQueue<>();
    Consumer<Pod> listener =
        p -> {
          if (op.namespace().equals(p.getMetadata().getNamespace())) {
            scheduled.add(p);
          }
        };
    watch.addListener(listener);
    try {
      // As upstream, the duration includes creating the first batch.
      long deadline = System.nanoTime() + op.duration().toNanos();
      List<String> batch = creator.create(op);
      int count = 0;
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || scheduled.poll(left, TimeUnit.NANOSECONDS) == null) {
          break;
        }
        count++;
        if (count % op.count() == 0 && System.nanoTime() < deadline) {
          pods.deleteCollection(op.namespace(), DELETE_NOW);
          batch = creator.create(op);
        }
      }
      progress.printf(
          "steady state in %s: %d pods scheduled in %ds%n",
          op.namespace(), count, op.duration().toSeconds());
      progress.flush();
      return batch;
    } finally {
      watch.removeListener(listener);
    }
  }
}
