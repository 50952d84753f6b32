package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET pods/NAME/log is proxied to the kubelet endpoint of the pod's node. */
class PodLogTest {
  static ServerFixture f;
  static HttpServer kubelet;

  @BeforeAll
  static void start() throws Exception {
    f = new ServerFixture();
    kubelet = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    kubelet.createContext(
        "/containerLogs/",
        ex -> {
          String path = ex.getRequestURI().getPath();
          byte[] body =
              (path.equals("/containerLogs/default/p1/ctr")
                      ? "line 1\nline 2\nline 3\n"
                      : "container not found\n")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(path.endsWith("/p1/ctr") ? 200 : 404, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    kubelet.start();
    f.client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata().build())
        .create();
    f.client
        .nodes()
        .withName("node-1")
        .editStatus(n -> {
          n.setStatus(
              new io.fabric8.kubernetes.api.model.NodeStatusBuilder()
                  .addNewAddress()
                  .withType("InternalIP")
                  .withAddress("127.0.0.1")
                  .endAddress()
                  .withNewDaemonEndpoints()
                  .withNewKubeletEndpoint()
                  .withPort(kubelet.getAddress().getPort())
                  .endKubeletEndpoint()
                  .endDaemonEndpoints()
                  .build());
          return n;
        });
    pod("p1", "node-1", "ctr");
    pod("p2", "node-1", "a", "b");
    pod("unbound", null, "ctr");
    f.client
        .pods()
        .inNamespace("default")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("p3")
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .addNewInitContainer()
                .withName("init0")
                .withImage("busybox")
                .endInitContainer()
                .addNewContainer()
                .withName("a")
                .withImage("busybox")
                .endContainer()
                .addNewContainer()
                .withName("b")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  static void pod(String name, String node, String... containers) {
    var b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withNodeName(node)
            .endSpec();
    for (String c : containers) {
      b.editSpec().addNewContainer().withName(c).withImage("busybox").endContainer().endSpec();
    }
    f.client.pods().inNamespace("default").resource(b.build()).create();
  }

  @AfterAll
  static void stop() {
    kubelet.stop(0);
    f.close();
  }

  @Test
  void singleContainerLogComesFromTheKubelet() {
    var r = f.get("/api/v1/namespaces/default/pods/p1/log", null);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("line 1\nline 2\nline 3\n");
    assertThat(f.client.pods().inNamespace("default").withName("p1").getLog()).isEqualTo(r.body());
  }

  @Test
  void tailLines() {
    var r = f.get("/api/v1/namespaces/default/pods/p1/log?container=ctr&tailLines=2", null);
    assertThat(r.body()).isEqualTo("line 2\nline 3\n");
  }

  @Test
  void errors() {
    record Case(String path, int code, String message) {}
    for (Case c :
        List.of(
            new Case(
                "/api/v1/namespaces/default/pods/p2/log",
                400,
                "a container name must be specified for pod p2, choose one of: [a b]"),
            new Case(
                "/api/v1/namespaces/default/pods/p3/log",
                400,
                "a container name must be specified for pod p3, choose one of: [a b] or one of"
                    + " the init containers: [init0]"),
            new Case(
                "/api/v1/namespaces/default/pods/p3/log?container=init0",
                400,
                "container not found"),
            new Case(
                "/api/v1/namespaces/default/pods/p1/log?container=nope",
                400,
                "container nope is not valid for pod p1"),
            new Case(
                "/api/v1/namespaces/default/pods/unbound/log",
                400,
                "pod unbound does not have a host assigned"),
            new Case(
                "/api/v1/namespaces/default/pods/p2/log?container=a", 400, "container not found"),
            new Case(
                "/api/v1/namespaces/default/pods/missing/log",
                404,
                "pods \\\"missing\\\" not found"))) {
      var r = f.get(c.path(), null);
      assertThat(r.statusCode()).as(c.path()).isEqualTo(c.code());
      assertThat(r.body()).as(c.path()).contains(c.message());
    }
    assertThat(
            f.raw("PUT", "/api/v1/namespaces/default/pods/p1/log", "application/json", "{}")
                .statusCode())
        .isEqualTo(405);
  }
}
