package io.jdra.apiserver.patch.bench;

import io.jdra.apiserver.patch.PatchException;
import io.jdra.apiserver.patch.PatchType;
import io.jdra.apiserver.patch.Patcher;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Per-request cost of the patch engines on a ~1 KB allocated ResourceClaim: the label patch kubectl
 * sends, a reservedFor strategic merge, a JSON patch, a no-op and a changing server-side apply, and
 * managedFields tracking of an update. Run: {@code scripts/bench jdra-apiserver PatchBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class PatchBench {
  private static final String V = "resource.k8s.io/v1";
  private static final String K = "ResourceClaim";
  private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
  private static final String CLAIM =
      """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"gpu-claim","namespace":"default","labels":{"app":"trainer"}},
       "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com",
         "selectors":[{"cel":{"expression":"device.attributes['gpu.example.com'].model == 'A100'"}}],
         "count":2}}]}},
       "status":{"allocation":{"devices":{"results":[
         {"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"},
         {"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-1"}]},
         "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[
           {"key":"metadata.name","operator":"In","values":["node-1"]}]}]}},
        "reservedFor":[{"resource":"pods","name":"trainer-0","uid":"4f7c2f4e-1"}]}}
      """;

  private ObjectNode claim;
  private ObjectNode applied;
  private ObjectNode changed;
  private byte[] config;
  private byte[] changedConfig;
  private final byte[] label = bytes("{\"metadata\":{\"labels\":{\"tier\":\"gold\"}}}");
  private final byte[] reserve =
      bytes(
          "{\"status\":{\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"trainer-1\","
              + "\"uid\":\"4f7c2f4e-2\"}]}}");
  private final byte[] jsonPatch =
      bytes("[{\"op\":\"replace\",\"path\":\"/metadata/labels/app\",\"value\":\"x\"}]");

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Setup
  public void setUp() throws PatchException {
    claim = (ObjectNode) JsonMapper.builder().build().readTree(CLAIM);
    config = bytes(CLAIM);
    changedConfig = bytes(CLAIM.replace("\"trainer\"", "\"trainer-2\""));
    applied = Patcher.apply(V, K, null, config, "kubectl", false, NOW);
    changed = claim.deepCopy();
    ((ObjectNode) changed.get("metadata").get("labels")).put("tier", "gold");
  }

  @Benchmark
  public ObjectNode strategicLabel() throws PatchException {
    return Patcher.patch(PatchType.STRATEGIC_MERGE_PATCH, V, K, claim, label);
  }

  @Benchmark
  public ObjectNode strategicReservedFor() throws PatchException {
    return Patcher.patch(PatchType.STRATEGIC_MERGE_PATCH, V, K, claim, reserve);
  }

  @Benchmark
  public ObjectNode jsonPatchReplace() throws PatchException {
    return Patcher.patch(PatchType.JSON_PATCH, V, K, claim, jsonPatch);
  }

  @Benchmark
  public ObjectNode applyNoop() throws PatchException {
    return Patcher.apply(V, K, applied, config, "kubectl", false, NOW);
  }

  @Benchmark
  public ObjectNode applyChange() throws PatchException {
    return Patcher.apply(V, K, applied, changedConfig, "kubectl", false, NOW);
  }

  @Benchmark
  public ObjectNode trackUpdate() {
    return Patcher.trackUpdate(V, K, claim, changed, "controller", NOW);
  }

  /** A template's claims as the controller creates them: each names its own pod. */
  private final ObjectNode[] created = new ObjectNode[64];

  /** The scheduler's finalizer write and then its allocation write of each of those claims. */
  private final ObjectNode[] finalized = new ObjectNode[64];

  private final ObjectNode[] allocated = new ObjectNode[64];
  private int next;

  @Setup
  public void setUpCreates() {
    ObjectNode status = (ObjectNode) claim.get("status");
    for (int i = 0; i < created.length; i++) {
      ObjectNode c = claim.deepCopy();
      c.remove("status");
      ObjectNode meta = (ObjectNode) c.get("metadata");
      meta.put("name", "trainer-" + i + "-gpu");
      meta.putArray("ownerReferences")
          .addObject()
          .put("apiVersion", "v1")
          .put("kind", "Pod")
          .put("name", "trainer-" + i)
          .put("uid", "4f7c2f4e-" + i)
          .put("controller", true)
          .put("blockOwnerDeletion", true);
      created[i] = Patcher.trackUpdateSharing(V, K, null, c, "controller", NOW, "");
      ObjectNode f = created[i].deepCopy();
      ((ObjectNode) f.get("metadata")).putArray("finalizers").add("resource.kubernetes.io/delete");
      finalized[i] = Patcher.trackUpdateSharing(V, K, created[i], f, "scheduler", NOW, "");
      allocated[i] = finalized[i].deepCopy();
      allocated[i].set("status", status.deepCopy());
    }
  }

  /** A claim create's managed fields (with the copy of the body the step consumes). */
  @Benchmark
  public ObjectNode trackClaimCreate() {
    ObjectNode c = created[next++ & 63].deepCopy();
    ((ObjectNode) c.get("metadata")).remove("managedFields");
    return Patcher.trackUpdateSharing(V, K, null, c, "controller", NOW, "");
  }

  /** The scheduler's status write's managed fields (with the copy of the body it consumes). */
  @Benchmark
  public ObjectNode trackClaimAllocation() {
    int i = next++ & 63;
    return Patcher.trackUpdateSharing(
        V, K, finalized[i], allocated[i].deepCopy(), "scheduler", NOW, "status");
  }
}
