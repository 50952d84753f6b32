package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A PUT's tree takes the stored object's own values where the body writes them alike
 * (Strategies.shareStoredValues): every answer is the one a server that shares nothing gives (an
 * admission of the server's user turns sharing off), for claims through their whole life, pods, and
 * bodies whose values are equal but written otherwise (key order, number form, a managed fields
 * reset).
 */
class PutSharingTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-27T13:00:00Z"), ZoneOffset.UTC);
  private static final String CLAIMS = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims";
  private static final String PODS = "/api/v1/namespaces/default/pods";

  static ServerFixture sharing;
  static ServerFixture copying;

  @BeforeAll
  static void start() {
    sharing = new ServerFixture(ApiServerOptions.inMemory().withClock(CLOCK));
    copying =
        new ServerFixture(
            ApiServerOptions.inMemory().withClock(CLOCK).withAdmission(r -> List.of()));
  }

  @AfterAll
  static void stop() {
    sharing.close();
    copying.close();
  }

  @Test
  void aClaimsLifeAnswersAlike() {
    String claim = CLAIMS + "/c";
    List<String> answers = new ArrayList<>();
    answers.add(
        both(
            "POST", CLAIMS + "?fieldManager=controller", o -> Json.parseObject(bytes(CLAIM)), 201));
    answers.add(both("PUT", claim + "?fieldManager=scheduler", o -> finalizer(o), 200));
    answers.add(both("PUT", claim + "/status?fieldManager=scheduler", o -> allocate(o), 200));
    answers.add(both("PUT", claim + "?fieldManager=other", o -> reorderLabels(o), 200));
    answers.add(both("PUT", claim + "?fieldManager=other", o -> reorderEntry(o), 200));
    // opaque parameters keep their bytes: equal values written otherwise are another spec
    answers.add(both("PUT", claim + "?fieldManager=other", o -> reorderParameters(o), 0));
    answers.add(both("PUT", claim + "?fieldManager=other", o -> otherNumberForm(o), 0));
    answers.add(both("PUT", claim + "/status?fieldManager=controller", o -> deallocate(o), 200));
    answers.add(both("PUT", claim + "?fieldManager=controller", o -> emptyManaged(o), 200));
    answers.add(both("PUT", claim + "?fieldManager=controller", o -> resetManaged(o), 0));
    answers.add(both("PUT", claim + "?fieldManager=controller", o -> withoutFinalizer(o), 200));
    assertThat(answers).hasSize(11);
  }

  @Test
  void aPodsPutsAnswerAlike() {
    String pod = PODS + "/p";
    both("POST", PODS + "?fieldManager=creator", o -> Json.parseObject(bytes(POD)), 201);
    both("PUT", pod + "?fieldManager=editor", o -> withLabel(o, "x", "1"), 200);
    both("PUT", pod + "?fieldManager=editor", o -> o, 200); // changes nothing
    both("PUT", pod + "?fieldManager=editor", o -> reorderLabels(o), 200);
    both("PUT", pod + "?fieldManager=editor", o -> emptyManaged(o), 200);
    both("PUT", pod + "?fieldManager=editor", o -> resetManaged(o), 0);
  }

  /**
   * Sends to both servers the body {@code next} makes of each one's current object (its last
   * answer, as a client resends it) and checks both answers are the same JSON but the uid and
   * resourceVersion, with the status given (0: any, the same on both).
   */
  private static String both(
      String method, String path, UnaryOperator<ObjectNode> next, int status) {
    String[] bodies = new String[2];
    int[] codes = new int[2];
    ServerFixture[] servers = {sharing, copying};
    for (int i = 0; i < 2; i++) {
      ObjectNode current = method.equals("POST") ? null : current(servers[i], path);
      String body = next.apply(current).toString();
      HttpResponse<String> r = servers[i].raw(method, path, "application/json", body);
      if (status > 0) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
      }
      codes[i] = r.statusCode();
      bodies[i] = withoutUid(r.body());
    }
    assertThat(codes[0]).as(method + " " + path).isEqualTo(codes[1]);
    assertThat(bodies[0]).as(method + " " + path).isEqualTo(bodies[1]);
    return bodies[0];
  }

  private static ObjectNode current(ServerFixture f, String path) {
    String object = path.replaceAll("/status\\?.*|\\?.*", "");
    HttpResponse<String> r = f.raw("GET", object, null, null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.parseObject(bytes(r.body()));
  }

  private static String withoutUid(String json) {
    return json.replaceAll("\"uid\":\"[0-9a-f-]{36}\"", "\"uid\":\"-\"")
        .replaceAll("\"resourceVersion\":\"[0-9]+\"", "\"resourceVersion\":\"-\"");
  }

  private static ObjectNode finalizer(ObjectNode o) {
    ((ObjectNode) o.get("metadata")).putArray("finalizers").add("example.com/protect");
    return o;
  }

  private static ObjectNode withoutFinalizer(ObjectNode o) {
    ((ObjectNode) o.get("metadata")).remove("finalizers");
    return o;
  }

  private static ObjectNode withLabel(ObjectNode o, String k, String v) {
    ((ObjectNode) o.at("/metadata/labels")).put(k, v);
    return o;
  }

  /** The same labels in the other order: equal, but written otherwise. */
  private static ObjectNode reorderLabels(ObjectNode o) {
    ObjectNode labels = (ObjectNode) o.at("/metadata/labels");
    ObjectNode reversed = Json.object();
    List<String> keys = new ArrayList<>(labels.propertyNames());
    for (int i = keys.size() - 1; i >= 0; i--) {
      reversed.set(keys.get(i), labels.get(keys.get(i)));
    }
    ((ObjectNode) o.get("metadata")).set("labels", reversed);
    return o;
  }

  /** A managed fields entry with its keys in another order. */
  private static ObjectNode reorderEntry(ObjectNode o) {
    ObjectNode first = (ObjectNode) o.at("/metadata/managedFields/0");
    ObjectNode moved = Json.object();
    moved.set("fieldsV1", first.get("fieldsV1"));
    first.properties().forEach(e -> moved.set(e.getKey(), e.getValue()));
    ((tools.jackson.databind.node.ArrayNode) o.at("/metadata/managedFields")).set(0, moved);
    return o;
  }

  private static ObjectNode parameters(ObjectNode o) {
    return (ObjectNode) o.at("/spec/devices/config/0/opaque/parameters");
  }

  private static ObjectNode reorderParameters(ObjectNode o) {
    ObjectNode p = parameters(o);
    ObjectNode reordered = Json.object();
    reordered.set("b", p.get("b"));
    reordered.set("a", p.get("a"));
    ((ObjectNode) o.at("/spec/devices/config/0/opaque")).set("parameters", reordered);
    return o;
  }

  private static ObjectNode otherNumberForm(ObjectNode o) {
    parameters(o).put("b", new java.math.BigDecimal("2.5"));
    return o;
  }

  private static ObjectNode emptyManaged(ObjectNode o) {
    ((ObjectNode) o.get("metadata")).putArray("managedFields");
    return o;
  }

  private static ObjectNode resetManaged(ObjectNode o) {
    ((ObjectNode) o.get("metadata")).putArray("managedFields").addObject();
    return o;
  }

  private static ObjectNode allocate(ObjectNode o) {
    o.set(
        "status",
        Json.parseObject(
            bytes(
                """
                {"allocation":{"devices":{"results":[{"request":"req-0",
                  "driver":"test-driver.cdi.k8s.io","pool":"node-1","device":"device-1"}]},
                 "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name",
                  "operator":"In","values":["node-1"]}]}]}},
                 "reservedFor":[{"resource":"pods","name":"p","uid":"0f0e7a4c-4f7e-4d55-9a8e-3c1f7d1c2b11"}]}
                """)));
    return o;
  }

  private static ObjectNode deallocate(ObjectNode o) {
    ObjectNode status = (ObjectNode) o.get("status");
    status.remove("allocation");
    status.putArray("reservedFor");
    status.putArray("devices");
    return o;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static final String CLAIM =
      """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"c","labels":{"a":"1","b":"2"},
        "annotations":{"resource.kubernetes.io/pod-claim-name":"resource"},
        "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p",
         "uid":"0f0e7a4c-4f7e-4d55-9a8e-3c1f7d1c2b11","controller":true,"blockOwnerDeletion":true}]},
       "spec":{"devices":{"requests":[{"name":"req-0","exactly":{
         "deviceClassName":"test-class","allocationMode":"ExactCount","count":1}}],
        "config":[{"requests":["req-0"],"opaque":{"driver":"test-driver.cdi.k8s.io",
         "parameters":{"a":1,"b":2.50}}}]}}}
      """;

  private static final String POD =
      """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1","b":"2"}},
       "spec":{"containers":[{"name":"c","image":"busybox:1"}]}}
      """;
}
