package io.jdra.kubelet.dra.state;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the kubelet remembers about one ResourceClaim it prepared or is preparing (upstream
 * state.ClaimInfoState): identity, the pods using it, and per driver the devices the driver
 * reported. {@code driverState} has an entry for every driver with allocation results in the claim,
 * even before (or without) devices. Immutable; the sets and maps are sorted so the checkpoint is
 * deterministic.
 */
public record ClaimInfoState(
    String claimUid,
    String claimName,
    String namespace,
    SortedSet<String> podUids,
    SortedMap<String, DriverState> driverState) {
  public ClaimInfoState {
    Objects.requireNonNull(claimUid, "claimUid");
    Objects.requireNonNull(claimName, "claimName");
    Objects.requireNonNull(namespace, "namespace");
    podUids =
        Collections.unmodifiableSortedSet(new TreeSet<>(podUids == null ? Set.of() : podUids));
    driverState =
        Collections.unmodifiableSortedMap(
            new TreeMap<>(driverState == null ? Map.of() : driverState));
  }

  public ClaimInfoState withPodUids(Set<String> uids) {
    return new ClaimInfoState(claimUid, claimName, namespace, new TreeSet<>(uids), driverState);
  }

  public ClaimInfoState withDriverState(Map<String, DriverState> state) {
    return new ClaimInfoState(claimUid, claimName, namespace, podUids, new TreeMap<>(state));
  }
}
