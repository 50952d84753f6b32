package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How dependents may disagree on who their owner is (upstream's {@code partitionDependents} and
 * {@code getAlternateOwnerIdentity}): an owner reference carries apiVersion, kind, name and UID but
 * no namespace, and a namespaced owner can only be in its dependent's namespace; so dependents of
 * one UID may name different objects, of which the graph keeps one identity per UID.
 */
final class OwnerIdentities {
  private OwnerIdentities() {}

  /**
   * Dependents whose reference to {@code owner.uid()} matches {@code owner}, and those that do not
   * (for a namespaced owner, every dependent in another namespace). A dependent with several
   * references to the UID may be in both.
   */
  record Partition(List<Node> matching, List<Node> nonmatching) {}

  static Partition partition(Collection<Node> dependents, ObjectIdentity owner) {
    boolean ownerNamespaced = !owner.namespace().isEmpty();
    List<Node> matching = new ArrayList<>();
    List<Node> nonmatching = new ArrayList<>();
    for (Node dep : dependents) {
      boolean match = false;
      boolean mismatch = false;
      if (ownerNamespaced && !owner.namespace().equals(dep.identity.namespace())) {
        mismatch = true;
      } else {
        for (OwnerReference r : dep.owners) {
          if (r.getUid().equals(owner.uid())) {
            if (owner.matchesCoordinates(r)) {
              match = true;
            } else {
              mismatch = true;
            }
          }
        }
      }
      if (match) {
        matching.add(dep);
      }
      if (mismatch) {
        nonmatching.add(dep);
      }
    }
    return new Partition(matching, nonmatching);
  }

  /**
   * Another identity the {@code deps} give the UID of {@code absent}, verified not to exist: the
   * first after {@code absent} in {@link ObjectIdentity#ORDER}, else the first; null if none, so
   * that each identity is checked once as the virtual node's in turn.
   */
  static ObjectIdentity alternate(Collection<Node> deps, ObjectIdentity absent) {
    boolean absentClusterScoped = absent.namespace().isEmpty();
    Set<ObjectIdentity> seen = new HashSet<>(Set.of(absent));
    ObjectIdentity first = null;
    ObjectIdentity firstFollowing = null;
    for (Node dep : deps) {
      for (OwnerReference r : dep.owners) {
        if (!r.getUid().equals(absent.uid())) {
          continue;
        }
        if (absent.matchesCoordinates(r)
            && (absentClusterScoped || absent.namespace().equals(dep.identity.namespace()))) {
          continue; // exactly the absent identity
        }
        ObjectIdentity ref = ObjectIdentity.ofOwner(r, dep.identity.namespace());
        if (absentClusterScoped
            && ref.apiVersion().equals(absent.apiVersion())
            && ref.kind().equals(absent.kind())) {
          ref = ref.withNamespace(""); // the absent one shows this kind is cluster-scoped
        }
        if (!seen.add(ref)) {
          continue;
        }
        if (first == null || ObjectIdentity.ORDER.compare(ref, first) < 0) {
          first = ref;
        }
        if (ObjectIdentity.ORDER.compare(absent, ref) < 0
            && (firstFollowing == null || ObjectIdentity.ORDER.compare(ref, firstFollowing) < 0)) {
          firstFollowing = ref;
        }
      }
    }
    return firstFollowing != null ? firstFollowing : first;
  }
}
