package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.client.ApiRequests;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
    BatchCounter scheduled = new BatchCounter(op.count());
    Consumer<Pod> listener =
        p -> {
          if (op.namespace().equals(p.getMetadata().getNamespace())) {
            scheduled.add();
          }
        };
    watch.addListener(listener);
    try {
      // As upstream, the duration includes creating the first batch.
      long deadline = System.nanoTime() + op.duration().toNanos();
      List<String> batch = creator.create(op);
      while (scheduled.awaitBatch(deadline) && System.nanoTime() < deadline) {
        pods.deleteCollection(op.namespace(), DELETE_NOW);
        batch = creator.create(op);
      }
      progress.printf(
          "steady state in %s: %d pods scheduled in %ds%n",
          op.namespace(), scheduled.count(), op.duration().toSeconds());
      progress.flush();
      return batch;
    } finally {
      watch.removeListener(listener);
    }
  }

  /**
   * Counts scheduled pods and wakes the waiting thread once per full batch: the bench thread acts
   * only on a batch's last pod, and waking it for every pod was a context switch per pod on the
   * measured CPU (the pod watch's thread handing each pod to it).
   */
  static final class BatchCounter {
    private final int batchSize;
    private final AtomicInteger count = new AtomicInteger();
    private final Semaphore batches = new Semaphore(0);

    BatchCounter(int batchSize) {
      this.batchSize = batchSize;
    }

    /** One more pod scheduled. */
    void add() {
      if (count.incrementAndGet() % batchSize == 0) {
        batches.release();
      }
    }

    /** Waits for the next full batch; false when the deadline passed first. */
    boolean awaitBatch(long deadlineNanos) throws InterruptedException {
      long left = deadlineNanos - System.nanoTime();
      return left > 0 && batches.tryAcquire(left, TimeUnit.NANOSECONDS);
    }

    int count() {
      return count.get();
    }
  }
}
