package io.jdra.apiserver.bench;

import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.apiserver.auth.Attributes;
import io.jdra.apiserver.auth.Authorizer;
import io.jdra.apiserver.auth.BootstrapPolicy;
import io.jdra.apiserver.auth.NodeAuthorizer;
import io.jdra.apiserver.auth.StoredNodeGraph;
import io.jdra.apiserver.auth.TokenAuthenticator;
import io.jdra.apiserver.auth.UserInfo;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.WriteOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What authentication and authorization add to every request: the token lookup, the admin's request
 * through {@code Node,RBAC}, a kubelet's pod status write (static node rules), and a kubelet's
 * claim GET, which looks through the pods bound to the node in the claim's namespace ({@code
 * podsPerNode} of them, each using one claim; the claim asked for is the last). Run: {@code
 * scripts/bench jdra-apiserver AuthorizerBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class AuthorizerBench {
  @Param({"10", "110"})
  int podsPerNode;

  private EmbeddedApiServer server;
  private Authorizer authorizer;
  private TokenAuthenticator tokens;
  private Attributes adminList;
  private Attributes podStatus;
  private Attributes claimGet;

  @Setup
  public void start() {
    server = EmbeddedApiServer.startInMemory();
    var service = server.service();
    ResourceType pods = service.registry().find("", "v1", "pods").orElseThrow();
    for (int i = 0; i < podsPerNode; i++) {
      String pod =
          ("{'metadata':{'name':'p%d'},'spec':{'nodeName':'node-1','containers':[{'name':'c',"
                  + "'image':'i'}],'resourceClaims':[{'name':'gpu','resourceClaimName':'claim-%d'}]}}")
              .formatted(i, i)
              .replace('\'', '"');
      service
          .create(pods, "default", Json.parseObject(pod.getBytes()), WriteOptions.DEFAULT)
          .join();
    }
    authorizer =
        Authorizer.union(
            List.of(
                new NodeAuthorizer(
                    new StoredNodeGraph(service.storage()), BootstrapPolicy.nodeRules()),
                BootstrapPolicy.rbac()));
    Map<String, UserInfo> users = new HashMap<>();
    for (int i = 0; i < 200; i++) {
      users.put("token-" + i, UserInfo.node("node-" + i));
    }
    tokens = new TokenAuthenticator(users);
    UserInfo node = UserInfo.node("node-1");
    adminList = Attributes.resource(UserInfo.admin(), "list", "default", "", "pods", "", "");
    podStatus = Attributes.resource(node, "patch", "default", "", "pods", "status", "p0");
    claimGet =
        Attributes.resource(
            node,
            "get",
            "default",
            "resource.k8s.io",
            "resourceclaims",
            "",
            "claim-" + (podsPerNode - 1));
    if (!authorizer.authorize(claimGet).allowed()) {
      throw new IllegalStateException("the claim must be allowed");
    }
  }

  @TearDown
  public void stop() {
    server.close();
  }

  @Benchmark
  public Object authenticate() {
    return tokens.authenticate("Bearer token-150");
  }

  @Benchmark
  public Object adminRequest() {
    return authorizer.authorize(adminList);
  }

  @Benchmark
  public Object kubeletPodStatus() {
    return authorizer.authorize(podStatus);
  }

  @Benchmark
  public Object kubeletClaimGet() {
    return authorizer.authorize(claimGet);
  }
}
