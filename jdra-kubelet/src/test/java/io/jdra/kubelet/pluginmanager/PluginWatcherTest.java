package io.jdra.kubelet.pluginmanager;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.jdra.kubelet.fake.FakeDriver;
import io.jdra.proto.UnixSockets;
import io.jdra.runtime.Ctx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The watcher's retry of registration sockets that did not answer GetInfo. */
class PluginWatcherTest {
  @TempDir Path root;

  static Stream<Arguments> backoffMillis() {
    return Stream.of(
        Arguments.of(1, 500L),
        Arguments.of(2, 1_000L),
        Arguments.of(3, 2_000L),
        Arguments.of(8, 64_000L),
        Arguments.of(9, 122_000L),
        Arguments.of(1_000, 122_000L));
  }

  @ParameterizedTest(name = "{0} failures: {1} ms")
  @MethodSource
  void backoffMillis(int failures, long millis) {
    assertThat(PluginWatcher.backoffMillis(failures)).isEqualTo(millis);
  }

  /**
   * The socket file appears (one inotify event) but the first GetInfo fails, as when a plugin has
   * bound its socket and not yet listens: with no further change in the directory, the watcher's
   * own retry registers it.
   */
  @Test
  void aSocketWhoseFirstGetInfoFailsIsRetriedWithoutAnotherDirectoryChange() throws Exception {
    Path registry = root.resolve("plugins_registry");
    Set<Path> refusedOnce = ConcurrentHashMap.newKeySet();
    Recording handler = new Recording();
    PluginWatcher watcher =
        new PluginWatcher(
            registry,
            Map.of("DRAPlugin", handler),
            socket -> dial(refusedOnce.add(socket) ? root.resolve("nobody.sock") : socket));
    Ctx ctx = Ctx.background("test").withCancel();
    watcher.start(ctx);
    try (FakeDriver driver =
        FakeDriver.start(
            registry, root.resolve("plugins/gpu/dra.sock"), "gpu", List.of("v1.DRAPlugin"))) {
      var status = driver.registrationStatus.poll(10, TimeUnit.SECONDS);
      assertThat(status).as("registration status after a retry").isNotNull();
      assertThat(status.getPluginRegistered()).isTrue();
      assertThat(handler.registered).containsExactly("gpu");
      assertThat(refusedOnce).containsExactly(driver.regSocket);
    } finally {
      ctx.cancel();
      watcher.close();
    }
  }

  private static ManagedChannel dial(Path socket) {
    return UnixSockets.channel(socket);
  }

  /** Accepts every plugin and records its name. */
  static final class Recording implements PluginHandler {
    final List<String> registered = new CopyOnWriteArrayList<>();

    @Override
    public void validatePlugin(String name, String endpoint, List<String> versions) {}

    @Override
    public void registerPlugin(
        String name, String endpoint, List<String> versions, Duration timeout) {
      registered.add(name);
    }

    @Override
    public void deRegisterPlugin(String name, String endpoint) {}
  }
}
