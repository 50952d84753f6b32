package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The claim constraints {@code matchAttribute} and {@code distinctAttribute}. Each tracks the
 * devices added so far; every successful {@code add} is undone by exactly one {@code remove} in
 * reverse order, so backtracking restores the state exactly (also the intersection of list values).
 */
final class Constraints {
  private Constraints() {}

  /**
   * A claim's constraint as every search of the claim starts it: made once per claim list (see
   * {@link PreparedClaims}), not per node. Immutable.
   *
   * @param match matchAttribute, else distinctAttribute
   * @param requests the requests it applies to (empty: all)
   * @param attribute the attribute's name, interned: each device remembers the attributes asked of
   *     it by name ({@link Dev#attribute}), and every pod's claim brings its own copy of the same
   *     name; one instance makes that check an identity comparison for all of them
   */
  record Spec(boolean match, Set<String> requests, String attribute) {
    /** The claim's constraints in order. */
    static Spec[] of(ResourceClaim claim) {
      List<DeviceConstraint> specs =
          claim.getSpec() == null || claim.getSpec().getDevices() == null
              ? null
              : claim.getSpec().getDevices().getConstraints();
      int n = specs == null ? 0 : specs.size();
      Spec[] out = new Spec[n];
      for (int i = 0; i < n; i++) {
        DeviceConstraint dc = specs.get(i);
        boolean match = dc.getMatchAttribute() != null;
        String attribute = match ? dc.getMatchAttribute() : dc.getDistinctAttribute();
        out[i] =
            new Spec(
                match,
                dc.getRequests() == null
                    ? Set.of()
                    // A set of the names, as upstream's: repeated names are no error here.
                    : Collections.unmodifiableSet(new HashSet<>(dc.getRequests())),
                attribute == null ? null : attribute.intern());
      }
      return out;
    }

    /** A fresh constraint with no devices yet. */
    Constraint start(boolean listTypes) {
      return match ? new Match(this, listTypes) : new Distinct(this, listTypes);
    }
  }

  /** A constraint over the devices of one claim. */
  abstract static class Constraint {
    final Set<String> requests;
    final String attribute;
    final boolean listTypes;

    Constraint(Spec spec, boolean listTypes) {
      this.requests = spec.requests();
      this.attribute = spec.attribute();
      this.listTypes = listTypes;
    }

    boolean appliesTo(RequestData rd) {
      if (requests.isEmpty()) {
        return true;
      }
      if (rd.isSubRequest()) {
        return requests.contains(rd.parentName) || requests.contains(rd.resultName());
      }
      return requests.contains(rd.name);
    }

    abstract boolean add(RequestData rd, Dev dev);

    abstract void remove(RequestData rd, Dev dev);

    /** Whether the device could still join (for pruning); never changes state. */
    abstract boolean admits(RequestData rd, Dev dev);

    abstract String describe();
  }

  /** All devices share one value (with list types: a non-empty common intersection). */
  static final class Match extends Constraint {
    private final List<Set<Object>> stack = new ArrayList<>();
    private Object scalar;
    private int numDevices;

    Match(Spec spec, boolean listTypes) {
      super(spec, listTypes);
    }

    @Override
    boolean add(RequestData rd, Dev dev) {
      if (!appliesTo(rd)) {
        return true;
      }
      DevFacts.Attribute a = dev.attribute(attribute);
      if (a.value() == null) {
        return false;
      }
      if (listTypes) {
        Set<Object> values = a.values();
        if (values == null) {
          return false;
        }
        if (numDevices > 0) {
          Set<Object> current = stack.get(stack.size() - 1);
          Set<Object> next = new HashSet<>(current);
          next.retainAll(values);
          if (next.isEmpty()) {
            return false;
          }
          values = next;
        }
        stack.add(values);
      } else {
        Object value = a.scalar();
        if (numDevices == 0) {
          scalar = value;
        } else if (value == null || !same(value, scalar)) {
          return false;
        }
      }
      numDevices++;
      return true;
    }

    @Override
    void remove(RequestData rd, Dev dev) {
      if (!appliesTo(rd)) {
        return;
      }
      numDevices--;
      if (listTypes) {
        stack.remove(stack.size() - 1);
      }
    }

    @Override
    boolean admits(RequestData rd, Dev dev) {
      if (!appliesTo(rd)) {
        return true;
      }
      DevFacts.Attribute a = dev.attribute(attribute);
      if (a.value() == null) {
        return false;
      }
      if (numDevices == 0) {
        return !listTypes || a.values() != null;
      }
      if (listTypes) {
        Set<Object> values = a.values();
        if (values == null) {
          return false;
        }
        Set<Object> current = stack.get(stack.size() - 1);
        for (Object v : values) {
          if (current.contains(v)) {
            return true;
          }
        }
        return false;
      }
      Object value = a.scalar();
      return value != null && same(value, scalar);
    }

    /**
     * Equal typed values. A search's devices all come from one slice snapshot, whose values are
     * canonical ({@link Attributes.Interner}): equal values are the same instance, so identity
     * decides, without reading either value (half the candidates of a pinned constraint differ).
     */
    private static boolean same(Object value, Object pinned) {
      return value == pinned;
    }

    /** The pinned value(s) once a device was added, else null. */
    Object pinned() {
      if (numDevices == 0) {
        return null;
      }
      return listTypes ? stack.get(stack.size() - 1) : scalar;
    }

    @Override
    String describe() {
      return "matchAttribute " + attribute;
    }
  }

  /** All devices have different values (with list types: pairwise disjoint sets). */
  static final class Distinct extends Constraint {
    private final List<DevFacts.Attribute> added = new ArrayList<>();

    Distinct(Spec spec, boolean listTypes) {
      super(spec, listTypes);
    }

    @Override
    boolean add(RequestData rd, Dev dev) {
      if (!appliesTo(rd)) {
        return true;
      }
      DevFacts.Attribute attr = dev.attribute(attribute);
      // The first device is always accepted when it has the attribute, as upstream.
      if (attr.value() == null || (!added.isEmpty() && !distinctFromAll(attr))) {
        return false;
      }
      added.add(attr);
      return true;
    }

    private boolean distinctFromAll(DevFacts.Attribute attr) {
      if (listTypes) {
        Set<Object> values = attr.values();
        if (values == null) {
          return false;
        }
        for (DevFacts.Attribute other : added) {
          Set<Object> o = other.values();
          if (o == null) {
            continue;
          }
          for (Object v : values) {
            if (o.contains(v)) {
              return false;
            }
          }
        }
        return true;
      }
      Object value = attr.scalar();
      if (value == null) {
        return false;
      }
      for (DevFacts.Attribute other : added) {
        // Canonical values: identity is equality (see Match#same).
        if (value == other.scalar()) {
          return false;
        }
      }
      return true;
    }

    @Override
    void remove(RequestData rd, Dev dev) {
      if (!appliesTo(rd)) {
        return;
      }
      added.remove(added.size() - 1);
    }

    @Override
    boolean admits(RequestData rd, Dev dev) {
      if (!appliesTo(rd)) {
        return true;
      }
      DevFacts.Attribute attr = dev.attribute(attribute);
      return attr.value() != null && (added.isEmpty() || distinctFromAll(attr));
    }

    @Override
    String describe() {
      return "distinctAttribute " + attribute;
    }
  }
}
