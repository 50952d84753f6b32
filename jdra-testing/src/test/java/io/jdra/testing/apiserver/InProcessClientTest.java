package io.jdra.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.inprocess.InProcessClients;
import io.jdra.testing.apiserver.WithApiServer.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The in-process transport against the HTTPS one of the same server (with a token, as {@code jdra
 * up} runs): the same answers and errors, and what components rely on beyond single requests
 * (watches with 410 Gone, informers, apply, patch, status, deletecollection, pods/binding).
 */
class InProcessClientTest {
  private static TestApiServer server;
  private static KubernetesClient https;
  private static KubernetesClient inProcess;

  @BeforeAll
  static void start() {
    server =
        TestApiServer.start(
            ApiServerOptions.inMemory().withSecurity(true).withWatchHistory(3), Transport.HTTP);
    https = server.newClient();
    inProcess = TestApiServer.newClient(server.server(), Transport.IN_PROCESS);
  }

  @AfterAll
  static void stop() {
    inProcess.close();
    server.close();
  }

  @Test
  void errorsAreTheSameAsOverHttps() {
    inProcess.resource(configMap("taken")).create();
    List<Function<KubernetesClient, Object>> failing =
        List.of(
            c -> c.configMaps().withName("missing").require(),
            c -> c.resource(configMap("taken")).create(),
            c ->
                c.resource(new PodBuilder().withNewMetadata().withName("p").endMetadata().build())
                    .create(),
            c -> c.configMaps().inNamespace("no-such-namespace").resource(configMap("x")).create());
    for (Function<KubernetesClient, Object> request : failing) {
      Throwable overHttps = catchThrowable(() -> request.apply(https));
      Throwable inMemory = catchThrowable(() -> request.apply(inProcess));
      assertThat(overHttps).isNotNull();
      assertThat(inMemory).hasSameClassAs(overHttps);
      assertThat(inMemory.getMessage().replace(inProcess.getMasterUrl().toString(), ""))
          .isEqualTo(overHttps.getMessage().replace(https.getMasterUrl().toString(), ""));
      if (overHttps instanceof KubernetesClientException e) {
        assertThat(((KubernetesClientException) inMemory).getCode()).isEqualTo(e.getCode());
        assertThat(((KubernetesClientException) inMemory).getStatus()).isEqualTo(e.getStatus());
      }
    }
  }

  @Test
  void authenticatesTheClientsToken() {
    Config wrongToken =
        new ConfigBuilder()
            .withMasterUrl(server.server().url().toString())
            .withOauthToken("not-a-token")
            .withRequestRetryBackoffLimit(0)
            .withAutoConfigure(false)
            .build();
    try (KubernetesClient c = InProcessClients.create(server.server(), wrongToken, null)) {
      Throwable e = catchThrowable(() -> c.configMaps().list());
      assertThat(e).isInstanceOf(KubernetesClientException.class);
      assertThat(((KubernetesClientException) e).getCode()).isEqualTo(401);
    }
  }

  @Test
  void watchFromAVersionTheServerNoLongerHasEndsGone() throws Exception {
    String old =
        inProcess.resource(configMap("gone-0")).create().getMetadata().getResourceVersion();
    for (int i = 1; i <= 5; i++) {
      inProcess.resource(configMap("gone-" + i)).create();
    }
    CompletableFuture<WatcherException> closed = new CompletableFuture<>();
    try (Watch w =
        inProcess
            .configMaps()
            .watch(
                new ListOptionsBuilder().withResourceVersion(old).build(),
                new Watcher<ConfigMap>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap resource) {}

                  @Override
                  public void onClose(WatcherException cause) {
                    closed.complete(cause);
                  }
                })) {
      assertThat(closed.get(30, TimeUnit.SECONDS).isHttpGone()).isTrue();
    }
  }

  @Test
  void watchDeliversEventsInOrderAndEndsWhenClosed() throws Exception {
    String from = inProcess.configMaps().list().getMetadata().getResourceVersion();
    LinkedBlockingQueue<String> events = new LinkedBlockingQueue<>();
    Watch w =
        inProcess
            .configMaps()
            .withLabel("watched", "yes")
            .watch(
                new ListOptionsBuilder()
                    .withResourceVersion(from)
                    .withAllowWatchBookmarks(true)
                    .build(),
                new Watcher<ConfigMap>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap cm) {
                    events.add(action + " " + cm.getMetadata().getName());
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                });
    ConfigMap watched = labelled("w1");
    inProcess.resource(watched).create();
    inProcess
        .configMaps()
        .withName("w1")
        .edit(c -> {
          c.setData(Map.of("k", "v"));
          return c;
        });
    inProcess.configMaps().withName("w1").delete();
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      seen.add(events.poll(30, TimeUnit.SECONDS));
    }
    assertThat(seen).containsExactly("ADDED w1", "MODIFIED w1", "DELETED w1");
    w.close();
  }

  @Test
  void watchDeliversEventsAfterOneWithNonAsciiText() throws Exception {
    String from = inProcess.configMaps().list().getMetadata().getResourceVersion();
    String text = "caf\u00e9 \u20ac \uD83D\uDE00";
    for (String name : List.of("text-1", "text-2", "text-3")) {
      ConfigMap cm = configMap(name);
      cm.getMetadata().setLabels(Map.of("text", "yes"));
      cm.setData(Map.of("k", name.equals("text-1") ? text : "plain"));
      inProcess.resource(cm).create();
    }
    LinkedBlockingQueue<String> events = new LinkedBlockingQueue<>();
    try (Watch w =
        inProcess
            .configMaps()
            .withLabel("text", "yes")
            .watch(
                new ListOptionsBuilder().withResourceVersion(from).build(),
                new Watcher<ConfigMap>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap cm) {
                    events.add(cm.getMetadata().getName() + "=" + cm.getData().get("k"));
                  }

                  @Override
                  public void onClose(WatcherException cause) {
                    events.add("closed: " + cause);
                  }
                })) {
      List<String> seen = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        seen.add(events.poll(30, TimeUnit.SECONDS));
      }
      assertThat(seen).containsExactly("text-1=" + text, "text-2=plain", "text-3=plain");
    }
  }

  @Test
  void informerListsThenFollowsChanges() throws Exception {
    inProcess.resource(labelled("inf-before")).create();
    CompletableFuture<ConfigMap> added = new CompletableFuture<>();
    SharedIndexInformer<ConfigMap> informer =
        inProcess
            .configMaps()
            .withLabel("watched", "yes")
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(ConfigMap cm) {
                    if (cm.getMetadata().getName().equals("inf-after")) {
                      added.complete(cm);
                    }
                  }

                  @Override
                  public void onUpdate(ConfigMap before, ConfigMap after) {}

                  @Override
                  public void onDelete(ConfigMap cm, boolean unknownFinalState) {}
                });
    try {
      assertThat(informer.getStore().getByKey("default/inf-before")).isNotNull();
      inProcess.resource(labelled("inf-after")).create();
      assertThat(added.get(30, TimeUnit.SECONDS).getMetadata().getName()).isEqualTo("inf-after");
    } finally {
      informer.close();
    }
  }

  @Test
  void applyPatchStatusBindingAndDeleteCollection() throws Exception {
    ConfigMap applied =
        inProcess
            .resource(new ConfigMapBuilder(configMap("applied")).withData(Map.of("a", "1")).build())
            .fieldManager("test")
            .forceConflicts()
            .serverSideApply();
    assertThat(applied.getMetadata().getManagedFields()).extracting("manager").contains("test");
    ConfigMap patched =
        inProcess
            .configMaps()
            .withName("applied")
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"b\":\"2\"}}");
    assertThat(patched.getData()).containsEntry("a", "1").containsEntry("b", "2");

    inProcess.resource(pod("bound")).create();
    PodCondition ready = new PodConditionBuilder().withType("Ready").withStatus("True").build();
    Pod status =
        inProcess
            .pods()
            .withName("bound")
            .editStatus(
                p -> new PodBuilder(p).editStatus().withConditions(ready).endStatus().build());
    assertThat(status.getStatus().getConditions()).extracting("type").contains("Ready");
    // pods/binding as the scheduler's DefaultBinder posts it
    HttpClient http = inProcess.getHttpClient();
    HttpResponse<String> bound =
        http.sendAsync(
                http.newHttpRequestBuilder()
                    .uri(inProcess.getMasterUrl() + "api/v1/namespaces/default/pods/bound/binding")
                    .post(
                        "application/json",
                        "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":"
                            + "\"bound\"},\"target\":{\"kind\":\"Node\",\"name\":\"node-1\"}}")
                    .build(),
                String.class)
            .get(30, TimeUnit.SECONDS);
    assertThat(bound.code()).isEqualTo(201);
    assertThat(inProcess.pods().withName("bound").get().getSpec().getNodeName())
        .isEqualTo("node-1");

    inProcess.resource(labelled("dc-1")).create();
    inProcess.resource(labelled("dc-2")).create();
    inProcess.configMaps().withLabel("watched", "yes").delete();
    assertThat(https.configMaps().withLabel("watched", "yes").list().getItems()).isEmpty();
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .endMetadata()
        .build();
  }

  private static ConfigMap labelled(String name) {
    return new ConfigMapBuilder(configMap(name))
        .editMetadata()
        .withLabels(Map.of("watched", "yes"))
        .endMetadata()
        .build();
  }

  private static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("c")
        .withImage("busybox")
        .endContainer()
        .endSpec()
        .build();
  }
}
