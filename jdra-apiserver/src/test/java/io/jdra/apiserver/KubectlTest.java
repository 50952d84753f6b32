package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kubectl 1.33 against the server over HTTPS with a bearer token and the kubeconfig it wrote: apply
 * of the upstream demo manifests, get/describe/label/annotate/patch/apply
 * --server-side/delete/wait. Skipped with a message when kubectl or the manifests are absent.
 */
class KubectlTest {
  static final Path KUBECTL = Path.of("/usr/lib/google-cloud-sdk/bin/kubectl.1.33");
  @TempDir static Path dir;
  static EmbeddedApiServer server;
  static Path kubeconfig;

  record Result(int exit, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }

  @BeforeAll
  static void start() {
    Assumptions.assumeTrue(
        Files.isExecutable(KUBECTL), "kubectl 1.33 not found at " + KUBECTL + "; skipping");
    kubeconfig = dir.resolve("kubeconfig");
    server =
        EmbeddedApiServer.start(
            ApiServerOptions.inMemory()
                // The podgroup demo's gates, as its kind cluster enables them.
                .withFeatureGates(
                    io.jdra.api.features.FeatureGates.parse(
                        "GenericWorkload=true,DRAWorkloadResourceClaims=true"))
                .withDataDir(dir.resolve("data"))
                .withSecurity(true)
                .withKubeconfig(kubeconfig));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static Result kubectl(String... args) throws IOException, InterruptedException {
    return kubectlIn(null, args);
  }

  static Result kubectlIn(String stdin, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(KUBECTL.toString());
    cmd.add("--kubeconfig=" + kubeconfig);
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("HOME", dir.toString());
    Process p = pb.start();
    if (stdin != null) {
      p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    p.getOutputStream().close();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  static Path examples() {
    for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        p != null;
        p = p.getParent()) {
      Path c = p.resolve("../shared/upstream-dra/examples").normalize();
      if (Files.isDirectory(c)) {
        return c;
      }
    }
    return null;
  }

  @Test
  void kubeconfigIsPrivateAndTokenRequired() throws Exception {
    assertThat(Files.getPosixFilePermissions(kubeconfig))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    Result r = kubectl("get", "--raw", "/readyz");
    assertThat(r.out()).as(r.toString()).isEqualTo("ok");
    Result noToken = kubectl("get", "namespaces", "--token=wrong");
    assertThat(noToken.exit()).isNotZero();
    assertThat(noToken.err()).contains("Unauthorized");
  }

  @TestFactory
  Stream<DynamicTest> appliesEveryDemoManifest() throws IOException {
    Path ex = examples();
    Assumptions.assumeTrue(
        ex != null, "upstream examples (../shared/upstream-dra/examples) absent; skipping");
    Path demo = ex.resolve("dra-example-driver/demo");
    List<Path> files;
    try (Stream<Path> s = Files.walk(demo)) {
      files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    return files.stream()
        .map(f ->
            DynamicTest.dynamicTest(
                demo.relativize(f).toString(),
                () -> {
                  Result r = kubectl("apply", "-f", f.toString());
                  if (!Files.readString(f).contains("apiVersion:")) {
                    // Published upstream without apiVersion: a real cluster's kubectl refuses it
                    // too, before anything reaches the server.
                    assertThat(r.exit()).as(r.toString()).isNotZero();
                    assertThat(r.err()).contains("apiVersion not set");
                    return;
                  }
                  assertThat(r.exit()).as(r.toString()).isZero();
                  Result again = kubectl("apply", "-f", f.toString());
                  assertThat(again.exit()).as(again.toString()).isZero();
                  assertThat(again.out()).contains("unchanged");
                }));
  }

  @Test
  void everydayVerbs() throws Exception {
    String claim =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata:
          name: verbs
        spec:
          devices:
            requests:
            - name: gpu
              exactly:
                deviceClassName: gpu.example.com
        """;
    Result create = kubectlIn(claim, "apply", "-f", "-");
    assertThat(create.exit()).as(create.toString()).isZero();
    assertThat(create.out()).contains("resourceclaim.resource.k8s.io/verbs created");

    Result get = kubectl("get", "resourceclaims");
    assertThat(get.out())
        .as(get.toString())
        .contains("NAME")
        .contains("STATE")
        .contains("verbs")
        .contains("pending");
    Result wide = kubectl("get", "resourceclaims", "-o", "wide");
    assertThat(wide.out()).as(wide.toString()).contains("DEVICES");
    Result yaml = kubectl("get", "resourceclaim", "verbs", "-o", "yaml");
    assertThat(yaml.out()).as(yaml.toString()).contains("deviceClassName: gpu.example.com");
    Result describe = kubectl("describe", "resourceclaim", "verbs");
    assertThat(describe.exit()).as(describe.toString()).isZero();
    assertThat(describe.out()).contains("Name:").contains("verbs");

    assertThat(kubectl("label", "resourceclaim", "verbs", "team=a").exit()).isZero();
    assertThat(kubectl("annotate", "resourceclaim", "verbs", "note=x").exit()).isZero();
    assertThat(kubectl("get", "resourceclaims", "-l", "team=a", "-o", "name").out())
        .contains("resourceclaim.resource.k8s.io/verbs");

    Result merge =
        kubectl(
            "patch",
            "resourceclaim",
            "verbs",
            "--type=merge",
            "-p",
            "{\"metadata\":{\"labels\":{\"m\":\"1\"}}}");
    assertThat(merge.exit()).as(merge.toString()).isZero();
    Result json =
        kubectl(
            "patch",
            "resourceclaim",
            "verbs",
            "--type=json",
            "-p",
            "[{\"op\":\"add\",\"path\":\"/metadata/labels/j\",\"value\":\"2\"}]");
    assertThat(json.exit()).as(json.toString()).isZero();
    Result strategic =
        kubectl(
            "patch", "configmap", "cm-verbs", "--type=strategic", "-p", "{\"data\":{\"k\":\"v\"}}");
    assertThat(strategic.exit()).isNotZero();
    // kubectl's generators send protobuf bodies.
    Result cm = kubectl("create", "configmap", "cm-verbs", "--from-literal=a=b");
    assertThat(cm.exit()).as(cm.toString()).isZero();
    strategic =
        kubectl(
            "patch", "configmap", "cm-verbs", "--type=strategic", "-p", "{\"data\":{\"k\":\"v\"}}");
    assertThat(strategic.exit()).as(strategic.toString()).isZero();
    assertThat(kubectl("get", "configmap", "cm-verbs", "-o", "jsonpath={.data.k}").out())
        .isEqualTo("v");

    Result ssa =
        kubectlIn(
            claim.replace("name: verbs", "name: verbs-ssa"), "apply", "--server-side", "-f", "-");
    assertThat(ssa.exit()).as(ssa.toString()).isZero();
    assertThat(ssa.out()).contains("serverside-applied");

    Result wait =
        kubectl(
            "wait",
            "--for=jsonpath={.metadata.labels.team}=a",
            "resourceclaim/verbs",
            "--timeout=10s");
    assertThat(wait.exit()).as(wait.toString()).isZero();
    String node =
        """
        apiVersion: v1
        kind: Node
        metadata:
          name: node-1
        status:
          conditions:
          - type: Ready
            status: "True"
            reason: KubeletReady
            message: ready
        """;
    assertThat(kubectlIn(node, "create", "-f", "-").exit()).isZero();
    Result condition = kubectl("wait", "--for=condition=Ready", "node/node-1", "--timeout=10s");
    assertThat(condition.exit()).as(condition.toString()).isZero();
    Result nsWait =
        kubectl(
            "wait", "--for=jsonpath={.status.phase}=Active", "namespace/default", "--timeout=10s");
    assertThat(nsWait.exit()).as(nsWait.toString()).isZero();

    Result del = kubectl("delete", "resourceclaim", "verbs", "verbs-ssa");
    assertThat(del.exit()).as(del.toString()).isZero();
    assertThat(del.out()).contains("resourceclaim.resource.k8s.io \"verbs\" deleted");
    assertThat(kubectl("get", "resourceclaim", "verbs").err()).contains("NotFound");
  }

  /** A generator command (its body is protobuf) and what the stored object must then hold. */
  record Generated(String name, List<String> args, String object, String jsonPath, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Generated> generators() {
    return Stream.of(
        new Generated(
            "configmap from literals",
            List.of("create", "configmap", "pb-cm", "--from-literal=a=b", "--from-literal=c=d"),
            "configmap/pb-cm",
            "{.data.a},{.data.c}",
            "b,d"),
        new Generated(
            "secret generic (bytes travel as protobuf bytes, stored as base64)",
            List.of("create", "secret", "generic", "pb-secret", "--from-literal=user=admin"),
            "secret/pb-secret",
            "{.data.user}",
            "YWRtaW4="),
        new Generated(
            "namespace",
            List.of("create", "namespace", "pb-ns"),
            "namespace/pb-ns",
            "{.metadata.name},{.status.phase}",
            "pb-ns,Active"),
        new Generated(
            "serviceaccount",
            List.of("create", "serviceaccount", "pb-sa"),
            "serviceaccount/pb-sa",
            "{.metadata.name},{.metadata.namespace}",
            "pb-sa,default"),
        new Generated(
            "deployment (nested template, selector, replicas pointer)",
            List.of("create", "deployment", "pb-deploy", "--image=busybox", "--replicas=2"),
            "deployment.apps/pb-deploy",
            "{.spec.replicas},{.spec.selector.matchLabels.app},"
                + "{.spec.template.metadata.labels.app},{.spec.template.spec.containers[0].image}",
            "2,pb-deploy,pb-deploy,busybox"),
        new Generated(
            "job",
            List.of("create", "job", "pb-job", "--image=busybox", "--", "echo", "hi"),
            "job.batch/pb-job",
            "{.spec.template.spec.restartPolicy},{.spec.template.spec.containers[0].image},"
                + "{.spec.template.spec.containers[0].command}",
            "Never,busybox,[\"echo\",\"hi\"]"),
        new Generated(
            "run (a pod)",
            List.of("run", "pb-pod", "--image=busybox", "--labels=app=pb", "--", "sleep", "1"),
            "pod/pb-pod",
            "{.metadata.labels.app},{.spec.containers[0].name},{.spec.containers[0].args}",
            "pb,pb-pod,[\"sleep\",\"1\"]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("generators")
  void generatorCommandsCreateObjects(Generated g) throws Exception {
    Result create = kubectl(g.args().toArray(String[]::new));
    assertThat(create.exit()).as(create.toString()).isZero();
    assertThat(create.out()).contains(g.object());
    Result get = kubectl("get", g.object(), "-o", "jsonpath=" + g.jsonPath());
    assertThat(get.out()).as(get.toString()).isEqualTo(g.want());
  }

  @Test
  void secretsAndPodsShowUpstreamDefaults() throws Exception {
    Result secret = kubectl("create", "secret", "generic", "defaulted", "--from-literal=a=b");
    assertThat(secret.exit()).as(secret.toString()).isZero();
    Result secrets = kubectl("get", "secrets");
    assertThat(secrets.out()).as(secrets.toString()).containsPattern("defaulted\\s+Opaque\\s+1\\s");

    Result run = kubectl("run", "defaulted", "--image=nginx", "--port=80");
    assertThat(run.exit()).as(run.toString()).isZero();
    Result yaml = kubectl("get", "pod", "defaulted", "-o", "yaml");
    assertThat(yaml.exit()).as(yaml.toString()).isZero();
    assertThat(yaml.out())
        .as(yaml.out())
        .contains(
            """
                imagePullPolicy: Always
                name: defaulted
                ports:
                - containerPort: 80
                  protocol: TCP
                resources: {}
                terminationMessagePath: /dev/termination-log
                terminationMessagePolicy: File
              dnsPolicy: ClusterFirst
              enableServiceLinks: true
              preemptionPolicy: PreemptLowerPriority
              priority: 0
              restartPolicy: Always
              schedulerName: default-scheduler
              securityContext: {}
              serviceAccount: default
              serviceAccountName: default
              terminationGracePeriodSeconds: 30
              tolerations:
              - effect: NoExecute
                key: node.kubernetes.io/not-ready
                operator: Exists
                tolerationSeconds: 300
              - effect: NoExecute
                key: node.kubernetes.io/unreachable
                operator: Exists
                tolerationSeconds: 300
            """);
  }

  @Test
  void explainListsFieldsFromTheServedSchemas() throws Exception {
    Result requests = kubectl("explain", "resourceclaims.spec.devices.requests");
    assertThat(requests.exit()).as(requests.toString()).isZero();
    assertThat(requests.out())
        .contains("KIND:       ResourceClaim")
        .contains("FIELD: requests <[]DeviceRequest>")
        .containsPattern("(?m)^  exactly\t<ExactDeviceRequest>$")
        .containsPattern("(?m)^  firstAvailable\t<\\[\\]DeviceSubRequest>$")
        .containsPattern("(?m)^  name\t<string>$");
    Result containers = kubectl("explain", "pods.spec.containers");
    assertThat(containers.exit()).as(containers.toString()).isZero();
    assertThat(containers.out())
        .contains("FIELD: containers <[]Container>")
        .containsPattern("(?m)^  image\t<string>$")
        .containsPattern("(?m)^  resources\t<ResourceRequirements>$");
    Result missing = kubectl("explain", "deviceclasses.spec.nope");
    assertThat(missing.exit()).isNotZero();
    assertThat(missing.err()).contains("field \"nope\" does not exist");
  }

  static final String BAD_DEPLOYMENT =
      """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: NAME
      spec:
        foo: 1
        replicas: 1
        bar: 2
        selector:
          matchLabels: {app: x}
        template:
          metadata:
            labels: {app: x}
          spec:
            containers:
            - name: c
              image: nginx
              baz: 3
      """;

  @Test
  void validateStrictRejectsEveryUnknownFieldAtOnce() throws Exception {
    Result strict =
        kubectlIn(
            BAD_DEPLOYMENT.replace("NAME", "strict"), "create", "--validate=strict", "-f", "-");
    assertThat(strict.exit()).as(strict.toString()).isNotZero();
    assertThat(strict.err())
        .as(strict.toString())
        .contains(
            "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version"
                + " \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field"
                + " \"spec.bar\", unknown field \"spec.foo\", unknown field"
                + " \"spec.template.spec.containers[0].baz\"");
    assertThat(kubectl("get", "deployment", "strict").err()).contains("NotFound");

    String claim =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata:
          name: strict-claim
        spec:
          devices:
            requests:
            - name: gpu
              exactly: {deviceClassName: gpu.example.com, counts: 2}
        """;
    Result claimStrict = kubectlIn(claim, "create", "-f", "-");
    assertThat(claimStrict.exit()).as(claimStrict.toString()).isNotZero();
    assertThat(claimStrict.err())
        .contains(
            "ResourceClaim in version \"v1\" cannot be handled as a ResourceClaim: strict decoding"
                + " error: unknown field \"spec.devices.requests[0].exactly.counts\"");
  }

  @Test
  void validateWarnWarnsAndDropsUnknownFields() throws Exception {
    Result warn =
        kubectlIn(BAD_DEPLOYMENT.replace("NAME", "warned"), "create", "--validate=warn", "-f", "-");
    assertThat(warn.exit()).as(warn.toString()).isZero();
    assertThat(warn.err().lines())
        .as(warn.toString())
        .containsExactly(
            "Warning: unknown field \"spec.bar\"",
            "Warning: unknown field \"spec.foo\"",
            "Warning: unknown field \"spec.template.spec.containers[0].baz\"");
    Result stored = kubectl("get", "deployment", "warned", "-o", "json");
    assertThat(stored.out())
        .as(stored.toString())
        .contains("\"replicas\": 1")
        .doesNotContain("foo");

    Result ignore =
        kubectlIn(
            BAD_DEPLOYMENT.replace("NAME", "ignored"), "create", "--validate=false", "-f", "-");
    assertThat(ignore.exit()).as(ignore.toString()).isZero();
    assertThat(ignore.err()).as(ignore.toString()).isEmpty();
  }

  @Test
  void clientSideApplyUpdatesWithoutTheV2ProtobufDocument() throws Exception {
    String d =
        BAD_DEPLOYMENT.replace("NAME", "applied").replaceAll("(?m)^.*(foo|bar|baz):.*\\n", "");
    Result first = kubectlIn(d, "apply", "-f", "-");
    assertThat(first.exit()).as(first.toString()).isZero();
    Result second = kubectlIn(d.replace("replicas: 1", "replicas: 3"), "apply", "-f", "-");
    assertThat(second.exit()).as(second.toString()).isZero();
    assertThat(second.out()).contains("deployment.apps/applied configured");
    assertThat(kubectl("get", "deployment", "applied", "-o", "jsonpath={.spec.replicas}").out())
        .isEqualTo("3");
    Result v2 = kubectl("get", "--raw", "/openapi/v2");
    assertThat(v2.out())
        .as(v2.toString())
        .startsWith("{\"swagger\":\"2.0\"")
        .contains("\"io.k8s.api.apps.v1.Deployment\":{");
  }

  @Test
  void explainTypesScalarsOfEveryGroup() throws Exception {
    for (String[] c :
        new String[][] {
          {"deployment.spec.replicas", "FIELD: replicas <integer>"},
          {"job.spec.completions", "FIELD: completions <integer>"},
          {"job.spec.suspend", "FIELD: suspend <boolean>"},
          {"deployment.metadata.creationTimestamp", "FIELD: creationTimestamp <string>"},
          {"resourceclaim.spec.devices.requests.exactly.count", "FIELD: count <integer>"},
          {
            "resourceclaim.spec.devices.requests.exactly.allocationMode",
            "FIELD: allocationMode <string>"
          },
          {
            "resourceslice.spec.devices.attributes",
            "FIELD: attributes <map[string]DeviceAttribute>"
          },
          {"pod.spec.containers.resources.limits", "FIELD: limits <map[string]Quantity>"}
        }) {
      Result r = kubectl("explain", c[0]);
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).as(r.toString()).contains(c[1]);
    }
  }

  @Test
  void getWatchPrintsNewObjects() throws Exception {
    Path out = Files.createTempFile(dir, "watch", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder(
                KUBECTL.toString(), "--kubeconfig=" + kubeconfig, "get", "configmaps", "-w")
            .redirectOutput(out.toFile())
            .redirectErrorStream(true);
    pb.environment().put("HOME", dir.toString());
    Process p = pb.start();
    try {
      await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(out).contains("NAME"));
      String cm =
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"watched\"}}";
      assertThat(kubectlIn(cm, "create", "-f", "-").exit()).isZero();
      await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(out).contains("watched"));
      assertThat(Files.readString(out)).contains("NAME").contains("DATA").contains("watched");
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void getWithChunkSizeFollowsContinueTokens() throws Exception {
    StringBuilder objects =
        new StringBuilder(
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"chunks\"}}");
    for (int i = 0; i < 5; i++) {
      objects.append(
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"chunk-"
              + i
              + "\",\"namespace\":\"chunks\"}}");
    }
    Result created = kubectlIn(objects.toString(), "create", "-f", "-");
    assertThat(created.exit()).as(created.toString()).isZero();
    Result names = kubectl("get", "configmaps", "-n", "chunks", "--chunk-size=2", "-o", "name");
    assertThat(names.out().lines().filter(l -> l.startsWith("configmap/chunk-")))
        .as(names.toString())
        .containsExactly(
            "configmap/chunk-0",
            "configmap/chunk-1",
            "configmap/chunk-2",
            "configmap/chunk-3",
            "configmap/chunk-4");
    // The table view pages too (-v=6 logs each GET, so the continue requests are visible).
    Result table = kubectl("get", "configmaps", "-n", "chunks", "--chunk-size=2", "-v=6");
    assertThat(table.exit()).as(table.toString()).isZero();
    assertThat(table.out().lines().filter(l -> l.startsWith("chunk-")).count()).isEqualTo(5);
    assertThat(table.err()).contains("limit=2").contains("continue=");
  }

  @Test
  void annotateWithAStaleResourceVersionConflicts() throws Exception {
    assertThat(kubectl("create", "configmap", "stale-rv", "--from-literal=a=b").exit()).isZero();

    Result stale = kubectl("annotate", "configmap", "stale-rv", "note=x", "--resource-version=1");

    assertThat(stale.exit()).as(stale.toString()).isNotZero();
    assertThat(stale.err())
        .contains("Error from server (Conflict)")
        .contains("the object has been modified");
    String current =
        kubectl("get", "configmap", "stale-rv", "-o", "jsonpath={.metadata.resourceVersion}").out();
    Result fresh =
        kubectl("annotate", "configmap", "stale-rv", "note=x", "--resource-version=" + current);
    assertThat(fresh.exit()).as(fresh.toString()).isZero();
  }

  @Test
  void rawListErrorsReadAsUpstreams() throws Exception {
    Result invalid =
        kubectl("get", "--raw", "/api/v1/configmaps?resourceVersionMatch=Exact&resourceVersion=0");
    assertThat(invalid.exit()).isNotZero();
    assertThat(invalid.err())
        .as(invalid.toString())
        .contains(
            // kubectl renders a 422 from its details (kind ListOptions, the causes).
            "The ListOptions \"\" is invalid: resourceVersionMatch: Forbidden:"
                + " resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"");
    Result badToken = kubectl("get", "--raw", "/api/v1/configmaps?continue=x");
    assertThat(badToken.err())
        .as(badToken.toString())
        .contains("invalid continue token: continue key is not valid");
  }
}
