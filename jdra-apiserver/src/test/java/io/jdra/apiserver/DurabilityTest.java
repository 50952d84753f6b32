package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Acknowledged writes survive kill -9 of the server process; versions and watches continue. */
class DurabilityTest {
  @TempDir Path dir;

  record Child(Process process, URI url) {}

  private Child startChild() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                DurableServerMain.class.getName(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = r.readLine()) != null) {
      if (line.startsWith("READY ")) {
        URI url = URI.create(line.substring(6).trim());
        Thread.ofPlatform().daemon().start(() -> drain(r));
        return new Child(p, url);
      }
    }
    throw new IllegalStateException("child server exited with " + p.waitFor());
  }

  private static void drain(BufferedReader r) {
    try {
      while (r.readLine() != null) {
        // keep the pipe flowing
      }
    } catch (Exception e) {
      // child gone
    }
  }

  private static KubernetesClient client(URI url) {
    return new io.fabric8.kubernetes.client.KubernetesClientBuilder()
        .withConfig(
            new io.fabric8.kubernetes.client.ConfigBuilder()
                .withMasterUrl(url.toString())
                .withNamespace("default")
                .withRequestRetryBackoffLimit(0)
                // Every write is fsynced: on a busy disk and two loaded cores (CI) a request can
                // take longer than fabric8's default 10 s. Durability is under test, not speed.
                .withRequestTimeout(120_000)
                .build())
        .build();
  }

  private static Map<String, String> snapshot(KubernetesClient c) {
    Map<String, String> m = new TreeMap<>();
    for (ConfigMap cm : c.configMaps().inNamespace("default").list().getItems()) {
      m.put(
          cm.getMetadata().getName(),
          cm.getMetadata().getResourceVersion()
              + "/"
              + cm.getMetadata().getUid()
              + "/"
              + cm.getData());
    }
    return m;
  }

  @Test
  void survivesKill9() throws Exception {
    Child first = startChild();
    Map<String, String> before;
    String lastRv;
    String midRv;
    try (KubernetesClient c = client(first.url())) {
      List<String> rvs = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        ConfigMap cm =
            c.resource(
                    new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("cm-" + i)
                        .endMetadata()
                        .addToData("i", Integer.toString(i))
                        .build())
                .create();
        rvs.add(cm.getMetadata().getResourceVersion());
      }
      for (int i = 0; i < 200; i += 10) {
        c.configMaps().withName("cm-" + i).delete();
      }
      midRv = rvs.get(150);
      ConfigMap last =
          c.configMaps()
              .withName("cm-199")
              .edit(x -> {
                x.getData().put("edited", "yes");
                return x;
              });
      lastRv = last.getMetadata().getResourceVersion();
      before = snapshot(c);
    }
    first.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);

    Child second = startChild();
    try (KubernetesClient c = client(second.url())) {
      assertThat(snapshot(c)).isEqualTo(before);
      ConfigMap next =
          c.resource(
                  new ConfigMapBuilder().withNewMetadata().withName("after").endMetadata().build())
              .create();
      assertThat(Long.parseLong(next.getMetadata().getResourceVersion()))
          .isGreaterThan(Long.parseLong(lastRv));
      // Watch resumption from a version before the crash replays what followed it.
      BlockingQueue<String> events = new LinkedBlockingQueue<>();
      try (var w =
          c.configMaps()
              .inNamespace("default")
              .watch(
                  new ListOptionsBuilder().withResourceVersion(midRv).build(),
                  new Watcher<ConfigMap>() {
                    @Override
                    public void eventReceived(Action a, ConfigMap o) {
                      events.add(a + " " + o.getMetadata().getName());
                    }

                    @Override
                    public void onClose(WatcherException e) {
                      events.add("CLOSED " + e);
                    }
                  })) {
        assertThat(events.poll(60, TimeUnit.SECONDS)).isEqualTo("ADDED cm-151");
      }
    } finally {
      second.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
