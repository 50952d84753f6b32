package io.jdra.runtime.bench;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.jdra.runtime.cache.MutationCache;
import io.jdra.runtime.clock.Clock;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

/**
 * The ResourceClaim controller's owner lookup on every pod sync, {@code byIndex} of the claim
 * mutation cache, as in a burst of pods: the cache full (100 claims the controller created, the
 * informer has half of them), the informer holding 5,000 claims. {@code newPod}: a pod with no
 * claim yet (the common case); {@code recordedPod}: a pod whose claim was just created and is
 * recorded.
 *
 * <pre>scripts/bench jdra-runtime -f 1 -wi 3 -i 5 MutationCacheBench</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx256m"})
@State(Scope.Benchmark)
public class MutationCacheBench {
  private static final String OWNER_INDEX = "claim-pod-owner-index";

  private MutationCache<ResourceClaim> cache;

  @Setup
  public void setUp() {
    CacheImpl<ResourceClaim> informer =
        new CacheImpl<>(
            Cache.NAMESPACE_INDEX, Cache::metaNamespaceIndexFunc, Cache::metaNamespaceKeyFunc);
    informer.addIndexers(
        Map.of(OWNER_INDEX, c -> List.of(c.getMetadata().getOwnerReferences().get(0).getUid())));
    for (int i = 0; i < 5000; i++) {
      informer.put(claim(i, "1"));
    }
    cache = new MutationCache<>(informer, Clock.system(), Duration.ofHours(1), true);
    for (int i = 5000; i < 5100; i++) {
      ResourceClaim created = claim(i, "2");
      cache.mutation(created);
      if (i % 2 == 0) {
        informer.put(claim(i, "1")); // an older copy: the recorded one stays
      }
    }
  }

  private static ResourceClaim claim(int i, String rv) {
    return Make.claim("pod-" + i + "-gpu-x")
        .namespace("ns")
        .resourceVersion(rv)
        .ownerPod("pod-" + i, "uid-" + i)
        .obj();
  }

  @Benchmark
  public List<ResourceClaim> newPod() {
    return cache.byIndex(OWNER_INDEX, "uid-6000");
  }

  @Benchmark
  public List<ResourceClaim> recordedPod() {
    return cache.byIndex(OWNER_INDEX, "uid-5051");
  }
}
