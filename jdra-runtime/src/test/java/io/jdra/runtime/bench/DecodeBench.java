package io.jdra.runtime.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.runtime.client.Clients;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding what a controller's informers and clients receive most: a ResourceClaim generated for a
 * pod as the API server returns it (its {@code managedFields} name the owner reference by the pod's
 * UID, a JSON property name unique to each claim) and a Pod, as a response body and as a watch
 * event. Serializations: {@code fabric8} (fabric8's default), {@code noncanonical} (fabric8's
 * decoding with {@link Clients#mapper()}: no property name canonicalization) and {@code jdra} (the
 * one {@link Clients} shares: that mapper, and watch events decoded in one pass) and {@code
 * trimmed} ({@link Clients#trimmedSerialization()}: jdra's, skipping managedFields as informers
 * that trim them do). The claims have 65,536 different owner UIDs, more names than Jackson's symbol
 * table keeps, as in a burst where every claim is new.
 *
 * <pre>scripts/bench jdra-runtime -f 1 -wi 3 -i 5 DecodeBench</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx512m"})
@State(Scope.Thread)
public class DecodeBench {
  private static final int DOCS = 65_536;

  @Param({"fabric8", "noncanonical", "jdra", "trimmed"})
  public String serialization;

  private KubernetesSerialization json;
  private final String[] claims = new String[DOCS];
  private final String[] claimEvents = new String[DOCS];
  private String pod;
  private String podEvent;
  private int next;

  @Setup
  public void setUp() {
    json =
        switch (serialization) {
          case "jdra" -> Clients.serialization();
          case "trimmed" -> Clients.trimmedSerialization();
          case "noncanonical" -> new KubernetesSerialization(Clients.mapper(), true);
          default -> new KubernetesSerialization();
        };
    for (int i = 0; i < DOCS; i++) {
      claims[i] = claim(UUID.randomUUID().toString());
      claimEvents[i] = event("MODIFIED", claims[i]);
    }
    pod = POD;
    podEvent = event("MODIFIED", POD);
  }

  private static String event(String type, String object) {
    return "{\"type\":\"" + type + "\",\"object\":" + object + "}\n";
  }

  @Benchmark
  public ResourceClaim generatedClaim() {
    next = (next + 1) % DOCS;
    return json.unmarshal(claims[next], ResourceClaim.class);
  }

  @Benchmark
  public Pod pod() {
    return json.unmarshal(pod, Pod.class);
  }

  /** What an informer's watch does with each event (AbstractWatchManager). */
  @Benchmark
  public Object watchEventGeneratedClaim() {
    next = (next + 1) % DOCS;
    return json.unmarshal(claimEvents[next], WatchEvent.class).getObject();
  }

  @Benchmark
  public Object watchEventPod() {
    return json.unmarshal(podEvent, WatchEvent.class).getObject();
  }

  /**
   * A watch event read from its UTF-8 bytes, as fabric8's {@code unmarshal(String, Class)} reads it
   * (and jdra's did before it read the String itself): the bytes, a stream over them, read as JSON
   * through a UTF-8 reader (the mapper does not canonicalize names, so Jackson's byte parser is not
   * used).
   */
  @Benchmark
  public Object watchEventPodFromBytes() {
    return json.unmarshal(
            new ByteArrayInputStream(podEvent.getBytes(StandardCharsets.UTF_8)), WatchEvent.class)
        .getObject();
  }

  @Benchmark
  public Object watchEventGeneratedClaimFromBytes() {
    next = (next + 1) % DOCS;
    return json.unmarshal(
            new ByteArrayInputStream(claimEvents[next].getBytes(StandardCharsets.UTF_8)),
            WatchEvent.class)
        .getObject();
  }

  /** A claim as the API server returns it for the ResourceClaim controller's create. */
  public static String claim(String podUid) {
    return """
    {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{\
    "generateName":"p1-gpu-","annotations":{"resource.kubernetes.io/pod-claim-name":"gpu"},\
    "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p1","uid":"UID",\
    "controller":true,"blockOwnerDeletion":true}],"namespace":"default","name":"p1-gpu-zp8mg",\
    "uid":"566c774f-4213-40d1-ab7a-58bcfdb7ef5d","creationTimestamp":"2026-11-26T14:22:41Z",\
    "generation":1,"managedFields":[{"manager":"jdra-controller-manager","operation":"Update",\
    "apiVersion":"resource.k8s.io/v1","time":"2026-11-26T14:22:41Z","fieldsType":"FieldsV1",\
    "fieldsV1":{"f:metadata":{"f:annotations":{".":{},\
    "f:resource.kubernetes.io/pod-claim-name":{}},"f:generateName":{},"f:ownerReferences":{\
    ".":{},"k:{\\"uid\\":\\"UID\\"}":{}}},"f:spec":{"f:devices":{"f:requests":{}}}}}],\
    "resourceVersion":"6"},"spec":{"devices":{"requests":[{"exactly":{\
    "allocationMode":"ExactCount","count":1,"deviceClassName":"gpu.example.com"},\
    "name":"gpu"}]}},"status":{}}\
    """
        .replace("UID", podUid);
  }

  /** A pod with a claim template after the controller recorded its claim. */
  public static final String POD =
      """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1","namespace":"default",\
      "uid":"39cb0905-d855-4db9-8c7a-beeb3aecb7af","creationTimestamp":"2026-11-26T14:22:40Z",\
      "generation":1,"managedFields":[{"manager":"bench","operation":"Update","apiVersion":"v1",\
      "time":"2026-11-26T14:22:40Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{\
      "f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},\
      "f:name":{},"f:resources":{".":{},"f:claims":{".":{},"k:{\\"name\\":\\"gpu\\"}":{".":{},\
      "f:name":{}}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},\
      "f:dnsPolicy":{},"f:enableServiceLinks":{},"f:resourceClaims":{".":{},\
      "k:{\\"name\\":\\"gpu\\"}":{".":{},"f:name":{},"f:resourceClaimTemplateName":{}}},\
      "f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},\
      "f:terminationGracePeriodSeconds":{}}}}],"resourceVersion":"7"},"spec":{"containers":[{\
      "name":"c","image":"x","resources":{"claims":[{"name":"gpu"}]},"imagePullPolicy":"Always",\
      "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],\
      "resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"t"}],\
      "enableServiceLinks":true,"dnsPolicy":"ClusterFirst","restartPolicy":"Always",\
      "securityContext":{},"terminationGracePeriodSeconds":30,"schedulerName":"default-scheduler",\
      "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists",\
      "effect":"NoExecute","tolerationSeconds":300}],"serviceAccountName":"default",\
      "priority":0},"status":{"phase":"Pending","qosClass":"BestEffort",\
      "resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"p1-gpu-abcde"}]}}\
      """;
}
