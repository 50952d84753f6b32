package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stored JSON of the built-in kinds outside resource.k8s.io as kube-apiserver 1.36 stores it:
 * decoder defaults, the Job selector, and the DefaultTolerationSeconds, ServiceAccount and Priority
 * admission plugins, each with and without values the user gave.
 */
class CoreDefaultsTest {
  static final String ABSENT = "<absent>";
  static final String TOLERATIONS =
      """
      [{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute",\
      "tolerationSeconds":300},{"key":"node.kubernetes.io/unreachable","operator":"Exists",\
      "effect":"NoExecute","tolerationSeconds":300}]\
      """;
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  /**
   * One create: the body, and JSON pointers into the created object with the JSON they must hold
   * ({@code $uid} stands for the object's uid, {@link #ABSENT} for a missing field).
   */
  record Case(String name, String path, String body, Map<String, String> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Map<String, String> want(String... pairs) {
    Map<String, String> m = new TreeMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  static final String PODS = "/api/v1/namespaces/default/pods";
  static final String SECRETS = "/api/v1/namespaces/default/secrets";
  static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";
  static final String REPLICASETS = "/apis/apps/v1/namespaces/default/replicasets";
  static final String JOBS = "/apis/batch/v1/namespaces/default/jobs";

  static String template(String spec) {
    return "{\"metadata\":{\"labels\":{\"app\":\"x\"}},\"spec\":" + spec + "}";
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "secret without type is Opaque",
            SECRETS,
            "{\"metadata\":{\"name\":\"s1\"},\"data\":{\"a\":\"Yg==\"}}",
            want("/type", "\"Opaque\"", "/data", "{\"a\":\"Yg==\"}")),
        new Case(
            "secret keeps its type; stringData becomes data",
            SECRETS,
            "{\"metadata\":{\"name\":\"s2\"},\"type\":\"example.com/x\","
                + "\"data\":{\"a\":\"Yg==\"},\"stringData\":{\"b\":\"hé\"}}",
            want(
                "/type", "\"example.com/x\"",
                "/data", "{\"a\":\"Yg==\",\"b\":\"aMOp\"}",
                "/stringData", ABSENT)),
        new Case(
            "pod without values gets every default",
            PODS,
            "{\"metadata\":{\"name\":\"p1\"},\"spec\":{\"containers\":[{\"name\":\"c\","
                + "\"image\":\"busybox\",\"ports\":[{\"containerPort\":80}]}]}}",
            want(
                "/spec/restartPolicy", "\"Always\"",
                "/spec/dnsPolicy", "\"ClusterFirst\"",
                "/spec/schedulerName", "\"default-scheduler\"",
                "/spec/terminationGracePeriodSeconds", "30",
                "/spec/securityContext", "{}",
                "/spec/enableServiceLinks", "true",
                "/spec/priority", "0",
                "/spec/preemptionPolicy", "\"PreemptLowerPriority\"",
                "/spec/serviceAccountName", "\"default\"",
                "/spec/serviceAccount", "\"default\"",
                "/spec/tolerations", TOLERATIONS,
                "/spec/volumes", ABSENT,
                "/spec/containers/0/imagePullPolicy", "\"Always\"",
                "/spec/containers/0/terminationMessagePath", "\"/dev/termination-log\"",
                "/spec/containers/0/terminationMessagePolicy", "\"File\"",
                "/spec/containers/0/resources", "{}",
                "/spec/containers/0/ports/0", "{\"containerPort\":80,\"protocol\":\"TCP\"}")),
        new Case(
            "pod keeps the values given",
            PODS,
            "{\"metadata\":{\"name\":\"p2\"},\"spec\":{\"restartPolicy\":\"Never\","
                + "\"dnsPolicy\":\"Default\",\"schedulerName\":\"mine\","
                + "\"terminationGracePeriodSeconds\":5,\"enableServiceLinks\":false,"
                + "\"securityContext\":{\"runAsUser\":7},\"serviceAccount\":\"old\","
                + "\"priority\":0,\"preemptionPolicy\":\"PreemptLowerPriority\","
                + "\"tolerations\":[{\"key\":\"node.kubernetes.io/not-ready\","
                + "\"operator\":\"Exists\"}],"
                + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox:1.36\","
                + "\"imagePullPolicy\":\"Never\",\"terminationMessagePolicy\":"
                + "\"FallbackToLogsOnError\",\"ports\":[{\"containerPort\":53,"
                + "\"protocol\":\"UDP\"}]}]}}",
            want(
                "/spec/restartPolicy", "\"Never\"",
                "/spec/dnsPolicy", "\"Default\"",
                "/spec/schedulerName", "\"mine\"",
                "/spec/terminationGracePeriodSeconds", "5",
                "/spec/enableServiceLinks", "false",
                "/spec/securityContext", "{\"runAsUser\":7}",
                "/spec/serviceAccountName", "\"old\"",
                "/spec/serviceAccount", "\"old\"",
                "/spec/tolerations",
                    "[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\"},"
                        + "{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\","
                        + "\"effect\":\"NoExecute\",\"tolerationSeconds\":300}]",
                "/spec/containers/0/imagePullPolicy", "\"Never\"",
                "/spec/containers/0/terminationMessagePolicy", "\"FallbackToLogsOnError\"",
                "/spec/containers/0/ports/0/protocol", "\"UDP\"")),
        new Case(
            "pod containers, probes, volumes, env and resources",
            PODS,
            "{\"metadata\":{\"name\":\"p3\"},\"spec\":{\"tolerations\":[{\"operator\":\"Exists\"}],"
                + "\"initContainers\":[{\"name\":\"i\",\"image\":\"reg.example.com:5000/a/b@sha256:"
                + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}],"
                + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx:latest\","
                + "\"resources\":{\"limits\":{\"cpu\":\"1\"},\"requests\":{\"memory\":\"1Gi\"}},"
                + "\"env\":[{\"name\":\"N\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":"
                + "\"metadata.name\"}}}],"
                + "\"livenessProbe\":{\"httpGet\":{\"port\":8080}},"
                + "\"readinessProbe\":{\"grpc\":{\"port\":9},\"periodSeconds\":3},"
                + "\"lifecycle\":{\"preStop\":{\"httpGet\":{\"port\":1,\"path\":\"/q\"}}}},"
                + "{\"name\":\"d\",\"image\":\"Bad/Name\"}],"
                + "\"volumes\":[{\"name\":\"e\"},{\"name\":\"s\",\"secret\":{\"secretName\":\"x\"}},"
                + "{\"name\":\"h\",\"hostPath\":{\"path\":\"/x\"}},"
                + "{\"name\":\"pr\",\"projected\":{\"sources\":[{\"serviceAccountToken\":"
                + "{\"path\":\"t\"}}]}}]}}",
            want(
                "/spec/tolerations", "[{\"operator\":\"Exists\"}]",
                "/spec/initContainers/0/imagePullPolicy", "\"IfNotPresent\"",
                "/spec/containers/0/imagePullPolicy", "\"Always\"",
                "/spec/containers/1/imagePullPolicy", "\"IfNotPresent\"",
                "/spec/containers/0/resources",
                    "{\"limits\":{\"cpu\":\"1\"},\"requests\":{\"memory\":\"1Gi\",\"cpu\":\"1\"}}",
                "/spec/containers/0/env/0/valueFrom/fieldRef",
                    "{\"fieldPath\":\"metadata.name\",\"apiVersion\":\"v1\"}",
                "/spec/containers/0/livenessProbe",
                    "{\"httpGet\":{\"port\":8080,\"path\":\"/\",\"scheme\":\"HTTP\"},"
                        + "\"timeoutSeconds\":1,\"periodSeconds\":10,\"successThreshold\":1,"
                        + "\"failureThreshold\":3}",
                "/spec/containers/0/readinessProbe",
                    "{\"grpc\":{\"port\":9,\"service\":\"\"},\"periodSeconds\":3,"
                        + "\"timeoutSeconds\":1,\"successThreshold\":1,\"failureThreshold\":3}",
                "/spec/containers/0/lifecycle/preStop/httpGet",
                    "{\"port\":1,\"path\":\"/q\",\"scheme\":\"HTTP\"}",
                "/spec/volumes/0", "{\"name\":\"e\",\"emptyDir\":{}}",
                "/spec/volumes/1/secret", "{\"secretName\":\"x\",\"defaultMode\":420}",
                "/spec/volumes/2/hostPath", "{\"path\":\"/x\",\"type\":\"\"}",
                "/spec/volumes/3/projected",
                    "{\"sources\":[{\"serviceAccountToken\":{\"path\":\"t\","
                        + "\"expirationSeconds\":3600}}],\"defaultMode\":420}")),
        new Case(
            "pod of a built-in priority class",
            PODS,
            "{\"metadata\":{\"name\":\"p4\"},\"spec\":{\"priorityClassName\":"
                + "\"system-node-critical\",\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}",
            want(
                "/spec/priority", "2000001000",
                "/spec/preemptionPolicy", "\"PreemptLowerPriority\"")),
        new Case(
            "host-network pod ports get host ports",
            PODS,
            "{\"metadata\":{\"name\":\"p5\"},\"spec\":{\"hostNetwork\":true,\"containers\":"
                + "[{\"name\":\"c\",\"image\":\"b\",\"ports\":[{\"containerPort\":80}]}]}}",
            want("/spec/containers/0/ports/0/hostPort", "80")),
        new Case(
            "deployment without values",
            DEPLOYMENTS,
            "{\"metadata\":{\"name\":\"d1\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":"
                + "\"x\"}},\"template\":"
                + template("{\"containers\":[{\"name\":\"c\",\"image\":\"b:1\"}]}")
                + "}}",
            want(
                "/spec/replicas", "1",
                "/spec/strategy",
                    "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":\"25%\","
                        + "\"maxSurge\":\"25%\"}}",
                "/spec/revisionHistoryLimit", "10",
                "/spec/progressDeadlineSeconds", "600",
                "/spec/template/spec/restartPolicy", "\"Always\"",
                "/spec/template/spec/terminationGracePeriodSeconds", "30",
                "/spec/template/spec/enableServiceLinks", ABSENT,
                "/spec/template/spec/tolerations", ABSENT,
                "/spec/template/spec/priority", ABSENT,
                "/spec/template/spec/serviceAccountName", ABSENT,
                "/spec/template/spec/containers/0/imagePullPolicy", "\"IfNotPresent\"",
                "/spec/template/spec/containers/0/resources", "{}")),
        new Case(
            "deployment keeps the values given",
            DEPLOYMENTS,
            "{\"metadata\":{\"name\":\"d2\"},\"spec\":{\"replicas\":0,\"revisionHistoryLimit\":0,"
                + "\"progressDeadlineSeconds\":30,\"strategy\":{\"type\":\"Recreate\"},"
                + "\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":"
                + template("{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}")
                + "}}",
            want(
                "/spec/replicas", "0",
                "/spec/strategy", "{\"type\":\"Recreate\"}",
                "/spec/revisionHistoryLimit", "0",
                "/spec/progressDeadlineSeconds", "30")),
        new Case(
            "deployment rolling update keeps its numbers",
            DEPLOYMENTS,
            "{\"metadata\":{\"name\":\"d3\"},\"spec\":{\"strategy\":{\"rollingUpdate\":"
                + "{\"maxSurge\":2}},\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":"
                + template("{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}")
                + "}}",
            want(
                "/spec/strategy",
                "{\"rollingUpdate\":{\"maxSurge\":2,\"maxUnavailable\":\"25%\"},"
                    + "\"type\":\"RollingUpdate\"}")),
        new Case(
            "replica set",
            REPLICASETS,
            "{\"metadata\":{\"name\":\"r1\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":"
                + "\"x\"}},\"template\":"
                + template("{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}")
                + "}}",
            want(
                "/spec/replicas", "1",
                "/spec/template/spec/dnsPolicy", "\"ClusterFirst\"",
                "/spec/template/spec/containers/0/terminationMessagePolicy", "\"File\"")),
        new Case(
            "job without values: defaults and the generated selector",
            JOBS,
            "{\"metadata\":{\"name\":\"j1\"},\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":"
                + "\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}}}",
            want(
                "/spec/backoffLimit", "6",
                "/spec/completions", "1",
                "/spec/parallelism", "1",
                "/spec/completionMode", "\"NonIndexed\"",
                "/spec/suspend", "false",
                "/spec/manualSelector", "false",
                "/spec/podReplacementPolicy", "\"TerminatingOrFailed\"",
                "/spec/selector",
                    "{\"matchLabels\":{\"batch.kubernetes.io/controller-uid\":\"$uid\"}}",
                "/spec/template/metadata/labels",
                    "{\"batch.kubernetes.io/controller-uid\":\"$uid\","
                        + "\"batch.kubernetes.io/job-name\":\"j1\",\"controller-uid\":\"$uid\","
                        + "\"job-name\":\"j1\"}",
                "/metadata/labels",
                    "{\"batch.kubernetes.io/controller-uid\":\"$uid\","
                        + "\"batch.kubernetes.io/job-name\":\"j1\",\"controller-uid\":\"$uid\","
                        + "\"job-name\":\"j1\"}",
                "/spec/template/spec/restartPolicy", "\"Never\"",
                "/spec/template/spec/dnsPolicy", "\"ClusterFirst\"")),
        new Case(
            "job keeps the values given",
            JOBS,
            "{\"metadata\":{\"name\":\"j2\",\"labels\":{\"mine\":\"y\"}},\"spec\":{"
                + "\"completions\":5,\"backoffLimit\":0,\"suspend\":true,"
                + "\"podFailurePolicy\":{\"rules\":[{\"action\":\"Ignore\",\"onPodConditions\":"
                + "[{\"type\":\"DisruptionTarget\"}]}]},"
                + "\"template\":{\"metadata\":{\"labels\":{\"job-name\":\"j2\"}},\"spec\":"
                + "{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":"
                + "\"b\"}]}}}}",
            want(
                "/spec/completions", "5",
                "/spec/parallelism", "1",
                "/spec/backoffLimit", "0",
                "/spec/suspend", "true",
                "/spec/podReplacementPolicy", "\"Failed\"",
                "/spec/podFailurePolicy/rules/0/onPodConditions/0",
                    "{\"type\":\"DisruptionTarget\",\"status\":\"True\"}",
                "/metadata/labels", "{\"mine\":\"y\"}",
                "/spec/template/metadata/labels/job-name", "\"j2\"",
                "/spec/template/spec/restartPolicy", "\"Never\"")),
        new Case(
            "job with a manual selector",
            JOBS,
            "{\"metadata\":{\"name\":\"j3\"},\"spec\":{\"manualSelector\":true,"
                + "\"backoffLimitPerIndex\":1,\"completionMode\":\"Indexed\",\"completions\":2,"
                + "\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":"
                + template(
                    "{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}")
                + "}}",
            want(
                "/spec/selector", "{\"matchLabels\":{\"app\":\"x\"}}",
                "/spec/template/metadata/labels", "{\"app\":\"x\"}",
                "/metadata/labels", "{\"app\":\"x\"}",
                "/spec/backoffLimit", "2147483647",
                "/spec/completionMode", "\"Indexed\"")),
        new Case(
            "namespace gets its name label",
            "/api/v1/namespaces",
            "{\"metadata\":{\"name\":\"ns-defaults\",\"labels\":{\"a\":\"b\"}}}",
            want(
                "/metadata/labels", "{\"a\":\"b\",\"kubernetes.io/metadata.name\":\"ns-defaults\"}",
                "/status/phase", "\"Active\"")),
        new Case(
            "node allocatable defaults to capacity",
            "/api/v1/nodes",
            "{\"metadata\":{\"name\":\"n-defaults\"},\"status\":{\"capacity\":{\"cpu\":\"4\"}}}",
            want("/status/allocatable", "{\"cpu\":\"4\"}")),
        new Case(
            "node allocatable given is kept",
            "/api/v1/nodes",
            "{\"metadata\":{\"name\":\"n-given\"},\"status\":{\"capacity\":{\"cpu\":\"4\"},"
                + "\"allocatable\":{\"cpu\":\"3\"}}}",
            want("/status/allocatable", "{\"cpu\":\"3\"}")),
        new Case(
            "config map has no defaults",
            "/api/v1/namespaces/default/configmaps",
            "{\"metadata\":{\"name\":\"cm\"}}",
            want("/data", ABSENT)),
        new Case(
            "service account has no defaults",
            "/api/v1/namespaces/default/serviceaccounts",
            "{\"metadata\":{\"name\":\"sa\"}}",
            want("/secrets", ABSENT, "/automountServiceAccountToken", ABSENT)),
        new Case(
            "lease has no defaults",
            "/apis/coordination.k8s.io/v1/namespaces/default/leases",
            "{\"metadata\":{\"name\":\"l\"},\"spec\":{}}",
            want("/spec", "{}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void createStoresUpstreamDefaults(Case c) {
    HttpResponse<String> r = f.raw("POST", c.path(), "application/json", c.body());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    JsonNode created = Json.MAPPER.readTree(r.body());
    String uid = created.path("metadata").path("uid").asString();
    for (Map.Entry<String, String> w : c.want().entrySet()) {
      JsonNode got = created.at(w.getKey());
      if (w.getValue().equals(ABSENT)) {
        assertThat(got.isMissingNode()).as(w.getKey() + " in " + r.body()).isTrue();
      } else {
        JsonNode want = Json.MAPPER.readTree(w.getValue().replace("$uid", uid));
        assertThat(Json.sameValue(got, want)).as(w.getKey() + ": " + got + " != " + want).isTrue();
      }
    }
    HttpResponse<String> stored =
        f.get(c.path() + "/" + created.at("/metadata/name").asString(), null);
    assertThat(Json.MAPPER.readTree(stored.body())).isEqualTo(created);
  }

  record Rejected(String name, String path, String body, int code, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Rejected> rejected() {
    return Stream.of(
        new Rejected(
            "unknown priority class",
            PODS,
            "{\"metadata\":{\"name\":\"bad1\"},\"spec\":{\"priorityClassName\":\"nope\","
                + "\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}",
            403,
            "pods \"bad1\" is forbidden: no PriorityClass with name nope was found"),
        new Rejected(
            "priority other than the class's",
            PODS,
            "{\"metadata\":{\"name\":\"bad2\"},\"spec\":{\"priority\":5,"
                + "\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}",
            403,
            "pods \"bad2\" is forbidden: the integer value of priority (5) must not be provided"
                + " in pod spec; priority admission controller computed 0 from the given"
                + " PriorityClass name"),
        new Rejected(
            "job without restartPolicy gets Always, which Jobs reject",
            JOBS,
            "{\"metadata\":{\"name\":\"bad3\"},\"spec\":{\"template\":{\"spec\":"
                + "{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}}}",
            422,
            "Job.batch \"bad3\" is invalid: spec.template.spec.restartPolicy: Required value:"
                + " valid values: \"OnFailure\", \"Never\""),
        new Rejected(
            "job with an unknown restartPolicy",
            JOBS,
            "{\"metadata\":{\"name\":\"bad4\"},\"spec\":{\"template\":{\"spec\":"
                + "{\"restartPolicy\":\"Sometimes\",\"containers\":[{\"name\":\"c\",\"image\":"
                + "\"b\"}]}}}}",
            422,
            "Job.batch \"bad4\" is invalid: spec.template.spec.restartPolicy: Unsupported value:"
                + " \"Sometimes\": supported values: \"OnFailure\", \"Never\""),
        new Rejected(
            "job with a pod failure policy restarting on failure",
            JOBS,
            "{\"metadata\":{\"name\":\"bad5\"},\"spec\":{\"podFailurePolicy\":{\"rules\":"
                + "[{\"action\":\"Ignore\",\"onPodConditions\":[{\"type\":\"DisruptionTarget\"}]}]},"
                + "\"template\":{\"spec\":{\"restartPolicy\":\"OnFailure\",\"containers\":"
                + "[{\"name\":\"c\",\"image\":\"b\"}]}}}}",
            422,
            "Job.batch \"bad5\" is invalid: spec.template.spec.restartPolicy: Invalid value:"
                + " \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rejected")
  void admissionRejectsAsUpstream(Rejected c) {
    HttpResponse<String> r = f.raw("POST", c.path(), "application/json", c.body());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(c.code());
    assertThat(Json.MAPPER.readTree(r.body()).path("message").asString()).isEqualTo(c.message());
  }

  @Test
  void updateWithoutDefaultedFieldsKeepsThemAndTheGeneration() {
    String path = DEPLOYMENTS + "/upd";
    String body =
        "{\"metadata\":{\"name\":\"upd\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":"
            + "\"x\"}},\"template\":"
            + template("{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}")
            + "}}";
    HttpResponse<String> created = f.raw("POST", DEPLOYMENTS, "application/json", body);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    HttpResponse<String> updated = f.raw("PUT", path, "application/json", body);
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    ObjectNode before = (ObjectNode) Json.MAPPER.readTree(created.body());
    ObjectNode after = (ObjectNode) Json.MAPPER.readTree(updated.body());
    assertThat(after.at("/metadata/resourceVersion"))
        .isEqualTo(before.at("/metadata/resourceVersion"));
    assertThat(after.at("/metadata/generation").asLong()).isEqualTo(1);
    assertThat(after.at("/spec/replicas").asInt()).isEqualTo(1);
  }

  @Test
  void patchThatRemovesADefaultedFieldGetsTheDefaultBack() {
    String body =
        "{\"metadata\":{\"name\":\"patched\"},\"spec\":{\"replicas\":3,\"selector\":"
            + "{\"matchLabels\":{\"app\":\"x\"}},\"template\":"
            + template("{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}")
            + "}}";
    HttpResponse<String> created = f.raw("POST", DEPLOYMENTS, "application/json", body);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    HttpResponse<String> patched =
        f.raw(
            "PATCH",
            DEPLOYMENTS + "/patched",
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":null,\"template\":{\"spec\":{\"dnsPolicy\":null}}}}");
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    JsonNode after = Json.MAPPER.readTree(patched.body());
    assertThat(after.at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(after.at("/spec/template/spec/dnsPolicy").asString()).isEqualTo("ClusterFirst");
    assertThat(after.at("/metadata/generation").asLong()).isEqualTo(2);
  }

  @Test
  void podUpdateKeepsPriorityAndTolerations() {
    String body =
        "{\"metadata\":{\"name\":\"pu\"},\"spec\":{\"containers\":[{\"name\":\"c\","
            + "\"image\":\"b\"}]}}";
    HttpResponse<String> created = f.raw("POST", PODS, "application/json", body);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    ObjectNode pod = (ObjectNode) Json.MAPPER.readTree(created.body());
    ObjectNode spec = (ObjectNode) pod.get("spec");
    spec.remove("priority");
    spec.remove("preemptionPolicy");
    spec.remove("tolerations");
    ((ObjectNode) pod.get("metadata")).putObject("labels").put("l", "v");
    HttpResponse<String> updated =
        f.raw("PUT", PODS + "/pu", "application/json", Json.MAPPER.writeValueAsString(pod));
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    JsonNode after = Json.MAPPER.readTree(updated.body());
    assertThat(after.at("/spec/priority").asInt()).isZero();
    assertThat(after.at("/spec/preemptionPolicy").asString()).isEqualTo("PreemptLowerPriority");
    assertThat(after.at("/spec/tolerations")).isEqualTo(Json.MAPPER.readTree(TOLERATIONS));
  }
}
