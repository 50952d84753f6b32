package io.jdra.apiserver.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.FieldSelector;
import io.jdra.apiserver.meta.LabelSelector;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.storage.StoredObject;
import io.jdra.apiserver.storage.WatchEvent;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WatchSessionTest {
  @Test
  void aWatcherThatDoesNotReadIsClosedInsteadOfBufferingForever() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      CountDownLatch ended = new CountDownLatch(1);
      AtomicInteger written = new AtomicInteger();
      WatchSession.Sink stuck =
          new WatchSession.Sink() {
            @Override
            public void write(Buffer event) {
              written.incrementAndGet();
            }

            @Override
            public void end() {
              ended.countDown();
            }

            @Override
            public void onClose(Runnable r) {}

            @Override
            public boolean full() {
              return true;
            }

            @Override
            public void onDrain(Runnable r) {}
          };
      var type = ResourceRegistry.builtIn().find("", "v1", "configmaps").orElseThrow();
      WatchSession.Encoder enc =
          new WatchSession.Encoder() {
            @Override
            public Buffer encode(String t, StoredObject o) {
              return Buffer.buffer("x");
            }

            @Override
            public Buffer bookmark(long v) {
              return Buffer.buffer("b");
            }
          };
      WatchSession s =
          new WatchSession(
              vertx.getOrCreateContext(),
              type,
              enc,
              "",
              LabelSelector.EVERYTHING,
              FieldSelector.EVERYTHING,
              stuck);
      for (int i = 0; i <= WatchSession.MAX_PENDING; i++) {
        StoredObject o =
            new StoredObject("default", "cm" + i, "u" + i, i + 1, new byte[0], Map.of(), Map.of());
        s.onEvent(new WatchEvent(WatchEvent.Type.ADDED, o, null));
      }
      assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(written.get()).isZero();
    } finally {
      vertx.close();
    }
  }

  @Test
  void aWatcherOfLargeObjectsIsClosedByBytesNotJustByCount() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      CountDownLatch ended = new CountDownLatch(1);
      WatchSession.Sink stuck =
          new WatchSession.Sink() {
            @Override
            public void write(Buffer event) {}

            @Override
            public void end() {
              ended.countDown();
            }

            @Override
            public void onClose(Runnable r) {}

            @Override
            public boolean full() {
              return true;
            }

            @Override
            public void onDrain(Runnable r) {}
          };
      var type = ResourceRegistry.builtIn().find("", "v1", "configmaps").orElseThrow();
      WatchSession.Encoder enc =
          new WatchSession.Encoder() {
            @Override
            public Buffer encode(String t, StoredObject o) {
              return Buffer.buffer("x");
            }

            @Override
            public Buffer bookmark(long v) {
              return Buffer.buffer("b");
            }
          };
      WatchSession s =
          new WatchSession(
              vertx.getOrCreateContext(),
              type,
              enc,
              "",
              LabelSelector.EVERYTHING,
              FieldSelector.EVERYTHING,
              stuck);
      byte[] large = new byte[1 << 20];
      long events = WatchSession.MAX_PENDING_BYTES / large.length + 1;
      assertThat(events).isLessThan(WatchSession.MAX_PENDING);
      for (int i = 0; i < events; i++) {
        StoredObject o = new StoredObject("default", "big", "u", i + 1, large, Map.of(), Map.of());
        s.onEvent(new WatchEvent(WatchEvent.Type.MODIFIED, o, null));
      }
      assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      vertx.close();
    }
  }
}
