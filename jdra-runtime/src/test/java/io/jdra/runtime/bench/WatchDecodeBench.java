package io.jdra.runtime.bench;

import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.runtime.client.Clients;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
import org.openjdk.jmh.infra.Blackhole;
import tools.jackson.core.type.TypeReference;

/**
 * The watch events informers decode for one pod of {@code jdra bench scheduler}'s steady state
 * (SteadyStateClusterResourceClaimTemplate), as the embedded API server sent them: the pod added,
 * given its claim's status by the ResourceClaim controller, bound and deleted; its generated claim
 * added, given the scheduler's finalizer, allocated and reserved, released and freed of its
 * finalizer. Pods are decoded as the scheduler's pod informer decodes them (managedFields trimmed,
 * {@link Clients#trimmedSerialization()}), claims as its claim informer does ({@link
 * Clients#sharedSerialization()}, managedFields kept). {@code claimResponse} is the answer to a
 * claim write (PUT resourceclaims/status) decoded from its bytes.
 *
 * <pre>scripts/bench jdra-runtime -f 1 -wi 5 -i 5 WatchDecodeBench</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx512m"})
@State(Scope.Thread)
public class WatchDecodeBench {
  private final KubernetesSerialization pods = Clients.trimmedSerialization();
  private final KubernetesSerialization claims = Clients.sharedSerialization();
  private List<String> events;
  private KubernetesSerialization[] decoders;
  private String boundPod;
  private String allocatedClaim;
  private byte[] allocatedClaimBody;

  @Setup
  public void setUp() {
    events = steadyStatePodEvents();
    decoders =
        events.stream()
            .map(e ->
                e.contains("\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\"") ? pods : claims)
            .toArray(KubernetesSerialization[]::new);
    boundPod = events.get(5);
    allocatedClaim = events.get(4);
    WatchEvent e = claims.unmarshal(allocatedClaim, WatchEvent.class);
    allocatedClaimBody = claims.asJson(e.getObject()).getBytes(StandardCharsets.UTF_8);
  }

  /** The nine events of one pod, in the order the informers received them. */
  @Benchmark
  public void steadyStatePod(Blackhole bh) {
    for (int i = 0; i < decoders.length; i++) {
      bh.consume(decoders[i].unmarshal(events.get(i), WatchEvent.class).getObject());
    }
  }

  @Benchmark
  public Object boundPodEvent() {
    return pods.unmarshal(boundPod, WatchEvent.class).getObject();
  }

  @Benchmark
  public Object allocatedClaimEvent() {
    return claims.unmarshal(allocatedClaim, WatchEvent.class).getObject();
  }

  @Benchmark
  public ResourceClaim claimResponse() {
    return claims.unmarshal(
        new ByteArrayInputStream(allocatedClaimBody), new TypeReference<ResourceClaim>() {});
  }

  /** The events, one JSON document a line (ADDED Pod first). */
  public static List<String> steadyStatePodEvents() {
    try (InputStream in =
        WatchDecodeBench.class.getResourceAsStream("steady-state-pod-events.jsonl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
