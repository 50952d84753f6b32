package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InformerExecutorTest {
  private static final long TIMEOUT = 30;

  @Test
  void aTaskFromOutsideRunsOnAPoolThread() throws Exception {
    InformerExecutor executor = new InformerExecutor();
    try {
      CompletableFuture<Thread> ran = new CompletableFuture<>();
      executor.execute(() -> ran.complete(Thread.currentThread()));
      Thread t = ran.get(TIMEOUT, TimeUnit.SECONDS);
      assertThat(t).isNotSameAs(Thread.currentThread());
      assertThat(t.getName()).startsWith("informer-pool-");
      assertThat(t.isDaemon()).isTrue();
    } finally {
      executor.shutdown();
    }
  }

  @Test
  void tasksHandedInByATaskRunOnItsThreadAfterItInOrder() throws Exception {
    InformerExecutor executor = new InformerExecutor();
    try {
      List<String> steps = new CopyOnWriteArrayList<>();
      List<Thread> threads = new CopyOnWriteArrayList<>();
      CompletableFuture<Void> done = new CompletableFuture<>();
      executor.execute(() -> {
        threads.add(Thread.currentThread());
        executor.execute(() -> {
          threads.add(Thread.currentThread());
          steps.add("second");
          executor.execute(() -> {
            threads.add(Thread.currentThread());
            steps.add("fourth");
            done.complete(null);
          });
        });
        executor.execute(() -> {
          threads.add(Thread.currentThread());
          steps.add("third");
        });
        steps.add("first ends");
      });
      done.get(TIMEOUT, TimeUnit.SECONDS);
      assertThat(steps).containsExactly("first ends", "second", "third", "fourth");
      assertThat(threads).hasSize(4).allMatch(t -> t == threads.get(0));
    } finally {
      executor.shutdown();
    }
  }

  @Test
  void aFailingTaskIsReportedAndWhatWasHandedInStillRuns() throws Exception {
    InformerExecutor executor = new InformerExecutor();
    try {
      CompletableFuture<Throwable> reported = new CompletableFuture<>();
      CompletableFuture<Void> later = new CompletableFuture<>();
      executor.execute(() -> {
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> reported.complete(e));
        executor.execute(() -> later.complete(null));
        throw new IllegalStateException("handler failed");
      });
      assertThat(reported.get(TIMEOUT, TimeUnit.SECONDS)).hasMessage("handler failed");
      later.get(TIMEOUT, TimeUnit.SECONDS);
    } finally {
      executor.shutdown();
    }
  }

  @Test
  void anotherExecutorsTaskHandedInFromThisOnesThreadRunsOnItsOwnPool() throws Exception {
    InformerExecutor one = new InformerExecutor();
    InformerExecutor other = new InformerExecutor();
    try {
      CompletableFuture<Thread> ranOn = new CompletableFuture<>();
      CompletableFuture<Thread> oneThread = new CompletableFuture<>();
      CompletableFuture<Void> otherStarted = new CompletableFuture<>();
      one.execute(() -> {
        oneThread.complete(Thread.currentThread());
        other.execute(() -> {
          ranOn.complete(Thread.currentThread());
          otherStarted.complete(null);
        });
        // Not deferred: the other executor's task runs while this one still runs.
        otherStarted.join();
      });
      assertThat(ranOn.get(TIMEOUT, TimeUnit.SECONDS))
          .isNotSameAs(oneThread.get(TIMEOUT, TimeUnit.SECONDS));
    } finally {
      one.shutdown();
      other.shutdown();
    }
  }
}
