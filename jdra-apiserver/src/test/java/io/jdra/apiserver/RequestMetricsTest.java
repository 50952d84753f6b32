package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** apiserver_request_total: upstream's verbs, scopes and labels for the requests served. */
class RequestMetricsTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  /** Requests counted so far, keyed by the labels joined with "|" in upstream's label order. */
  static Map<String, Long> counts() {
    Map<String, Long> out = new HashMap<>();
    for (MetricSnapshot s : f.server.metrics().scrape()) {
      if (s instanceof CounterSnapshot cs
          && cs.getMetadata().getPrometheusName().equals("apiserver_request")) {
        for (CounterSnapshot.CounterDataPointSnapshot d : cs.getDataPoints()) {
          out.put(key(d.getLabels()), (long) d.getValue());
        }
      }
    }
    return out;
  }

  static String key(Labels l) {
    return String.join(
        "|",
        l.get("verb"),
        l.get("dry_run"),
        l.get("group"),
        l.get("version"),
        l.get("resource"),
        l.get("subresource"),
        l.get("scope"),
        l.get("component"),
        l.get("code"));
  }

  static void awaitCount(String key, long want) {
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> assertThat(counts().getOrDefault(key, 0L)).as("%s", counts()).isEqualTo(want));
  }

  static ConfigMap configMap(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .endMetadata()
        .addToData("k", "v")
        .build();
  }

  @Test
  void crudVerbsWithScopeAndCode() {
    f.client.resource(configMap("m1")).create();
    awaitCount("POST|||v1|configmaps||namespace|apiserver|201", 1);

    assertThat(f.client.configMaps().withName("m1").get()).isNotNull();
    awaitCount("GET|||v1|configmaps||resource|apiserver|200", 1);

    assertThat(f.client.configMaps().withName("missing").get()).isNull();
    awaitCount("GET|||v1|configmaps||resource|apiserver|404", 1);

    f.client.configMaps().list();
    awaitCount("LIST|||v1|configmaps||namespace|apiserver|200", 1);

    f.client.configMaps().inAnyNamespace().list();
    awaitCount("LIST|||v1|configmaps||cluster|apiserver|200", 1);

    ConfigMap m1 = f.client.configMaps().withName("m1").get();
    f.client.resource(new ConfigMapBuilder(m1).addToData("x", "y").build()).update();
    awaitCount("PUT|||v1|configmaps||resource|apiserver|200", 1);

    f.client.configMaps().inNamespace("default").delete();
    awaitCount("DELETECOLLECTION|||v1|configmaps||namespace|apiserver|200", 1);
  }

  @Test
  void applyStatusAndDryRun() {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName("p1")
            .withNamespace("default")
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("c")
            .withImage("pause")
            .endContainer()
            .endSpec()
            .build();
    f.client.resource(pod).dryRun().create();
    awaitCount("POST|All||v1|pods||namespace|apiserver|201", 1);

    f.client.resource(pod).fieldManager("test").forceConflicts().serverSideApply();
    awaitCount("APPLY|||v1|pods||resource|apiserver|201", 1);

    Pod current = f.client.pods().withName("p1").get();
    f.client.resource(current).updateStatus();
    awaitCount("PUT|||v1|pods|status|resource|apiserver|200", 1);

    f.client.pods().withName("p1").delete();
    awaitCount("DELETE|||v1|pods||resource|apiserver|200", 1);
  }

  @Test
  void requestsOutsideTheResourceApi() {
    assertThat(f.get("/version", null).statusCode()).isEqualTo(200);
    awaitCount("GET|||||||apiserver|200", 1);
  }
}
