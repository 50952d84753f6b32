package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Garbage collection by ownerReferences, deletecollection, pagination, status subresource. */
class GcAndPagingTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static Pod pod(String name) {
    return f.client
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  static ConfigMap dependent(String name, Pod owner) {
    return f.client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withOwnerReferences(
                    new OwnerReferenceBuilder()
                        .withApiVersion("v1")
                        .withKind("Pod")
                        .withName(owner.getMetadata().getName())
                        .withUid(owner.getMetadata().getUid())
                        .withBlockOwnerDeletion(true)
                        .build())
                .endMetadata()
                .build())
        .create();
  }

  static void eventually(BooleanSupplier condition) throws InterruptedException {
    await().atMost(Duration.ofSeconds(5)).until(condition::getAsBoolean);
  }

  /*
   * The server records what a deletion asks for; the controller-manager's garbage collector acts
   * on it (jdra-controllers' GarbageCollectorIntegrationTest shows the whole cascade).
   */

  @Test
  void backgroundDeletionLeavesDependentsToTheCollector() {
    Pod owner = pod("owner-bg");
    dependent("dep-bg", owner);
    f.client.pods().withName("owner-bg").withGracePeriod(0).delete();
    assertThat(f.client.pods().withName("owner-bg").get()).isNull();
    assertThat(f.client.configMaps().withName("dep-bg").get()).isNotNull();
  }

  @Test
  void foregroundDeletionKeepsTheOwnerWithItsFinalizer() {
    Pod owner = pod("owner-fg");
    dependent("dep-fg", owner);
    f.client
        .pods()
        .withName("owner-fg")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .withGracePeriod(0)
        .delete();
    Pod deleting = f.client.pods().withName("owner-fg").get();
    assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(deleting.getMetadata().getFinalizers()).contains("foregroundDeletion");
  }

  @Test
  void orphanDeletionKeepsTheOwnerWithItsFinalizer() {
    Pod owner = pod("owner-or");
    dependent("dep-or", owner);
    f.client
        .pods()
        .withName("owner-or")
        .withPropagationPolicy(DeletionPropagation.ORPHAN)
        .withGracePeriod(0)
        .delete();
    Pod deleting = f.client.pods().withName("owner-or").get();
    assertThat(deleting.getMetadata().getFinalizers()).contains("orphan");
    assertThat(f.client.configMaps().withName("dep-or").get().getMetadata().getOwnerReferences())
        .hasSize(1);
  }

  @Test
  void paginationVisitsEveryObjectOnce() {
    for (int i = 0; i < 25; i++) {
      f.client
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName(String.format("page-%02d", i))
                  .addToLabels("paged", "yes")
                  .endMetadata()
                  .build())
          .create();
    }
    List<String> names = new ArrayList<>();
    String cont = null;
    int pages = 0;
    do {
      ConfigMapList page =
          f.client
              .configMaps()
              .withLabel("paged", "yes")
              .list(new ListOptionsBuilder().withLimit(10L).withContinue(cont).build());
      page.getItems().forEach(c -> names.add(c.getMetadata().getName()));
      cont = page.getMetadata().getContinue();
      pages++;
    } while (cont != null && !cont.isEmpty());
    assertThat(pages).isEqualTo(3);
    assertThat(names).hasSize(25).doesNotHaveDuplicates().isSorted();
  }

  @Test
  void deleteCollectionBySelector() throws Exception {
    for (int i = 0; i < 5; i++) {
      f.client
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("dc-" + i)
                  .addToLabels("dc", i < 3 ? "a" : "b")
                  .endMetadata()
                  .build())
          .create();
    }
    var r =
        f.raw("DELETE", "/api/v1/namespaces/default/configmaps?labelSelector=dc%3Da", null, null);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(f.client.configMaps().withLabel("dc", "a").list().getItems()).isEmpty();
    assertThat(f.client.configMaps().withLabel("dc", "b").list().getItems()).hasSize(2);
  }

  @Test
  void statusSubresourceSeparatesSpecAndStatus() {
    Pod p = pod("status-pod");
    assertThat(p.getStatus().getPhase()).isEqualTo("Pending");
    p.getStatus().setPhase("Running");
    p.getSpec().setActiveDeadlineSeconds(5L);
    Pod afterStatus = f.client.pods().resource(p).updateStatus();
    assertThat(afterStatus.getStatus().getPhase()).isEqualTo("Running");
    assertThat(afterStatus.getSpec().getActiveDeadlineSeconds()).isNull();
    afterStatus.getStatus().setPhase("Failed");
    afterStatus.getMetadata().setLabels(java.util.Map.of("x", "y"));
    Pod afterMain = f.client.pods().resource(afterStatus).update();
    assertThat(afterMain.getStatus().getPhase()).isEqualTo("Running");
    assertThat(afterMain.getMetadata().getLabels()).containsEntry("x", "y");
  }

  @Test
  void boundPodTerminatesGracefully() throws Exception {
    Pod p = pod("graceful");
    var binding =
        "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"graceful\"},"
            + "\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}";
    var r =
        f.raw(
            "POST",
            "/api/v1/namespaces/default/pods/graceful/binding",
            "application/json",
            binding);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    var again =
        f.raw(
            "POST",
            "/api/v1/namespaces/default/pods/graceful/binding",
            "application/json",
            binding);
    assertThat(again.statusCode()).isEqualTo(409);
    f.client.pods().withName("graceful").delete();
    Pod terminating = f.client.pods().withName("graceful").get();
    assertThat(terminating.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(terminating.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
    f.client.pods().withName("graceful").withGracePeriod(0).delete();
    assertThat(f.client.pods().withName("graceful").get()).isNull();
  }

  @Test
  void jobsAreDeletedWithOrphanByDefault() {
    String job =
        "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"j1\"},"
            + "\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":"
            + "[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}";
    var created = f.raw("POST", "/apis/batch/v1/namespaces/default/jobs", "application/json", job);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(
            f.raw("DELETE", "/apis/batch/v1/namespaces/default/jobs/j1", null, null).statusCode())
        .isLessThan(300);
    var after = f.get("/apis/batch/v1/namespaces/default/jobs/j1", null);
    assertThat(after.statusCode()).isEqualTo(200);
    assertThat(after.body()).contains("\"orphan\"").contains("deletionTimestamp");
  }
}
