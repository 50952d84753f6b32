package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The claim constraints {@code matchAttribute} and {@code distinctAttribute}. Each tracks the
 * devices added so far; every successful {@code add} is undone by exactly one {@code remove} in
 * reverse order, so backtracking restores the state exactly (also the intersection of list values).
 */
final class Constraints {
  private Constraints() {}

  /** A constraint over the devices of one claim. */
  abstract static class Constraint {
    final Set<String> requests;
    final String attribute;
    final boolean listTypes;

    Constraint(List<String> requests, String attribute, boolean listTypes) {
      this.requests = requests == null ? Set.of() : Set.copyOf(requests);
      // Interned: each device remembers the last attribute asked of it by name (DevFacts), and
      // every pod's claim brings its own copy of the same name; one instance makes that check an
      // identity comparison for all of them.
      this.attribute = attribute == null ? null : attribute.intern();
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

    Match(List<String> requests, String attribute, boolean listTypes) {
      super(requests, attribute, listTypes);
    }

    @Override
    boolean add(RequestData rd, Dev dev) {
      if (!appliesTo(rd)) {
        return true;
      }
      DevFacts.Attribute a = dev.facts.attribute(attribute);
      if (a.value() == null) {
        return false;
      }
      if (listTypes) {
        Set<Object> values = Attributes.asSet(a.value());
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
        } else if (value == null || !Objects.equals(value, scalar)) {
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
      DevFacts.Attribute a = dev.facts.attribute(attribute);
      if (a.value() == null) {
        return false;
      }
      if (numDevices == 0) {
        return !listTypes || Attributes.asSet(a.value()) != null;
      }
      if (listTypes) {
        Set<Object> values = Attributes.asSet(a.value());
        if (values == null) {
          return false;
        }
        for (Object v : values) {
          if (stack.get(stack.size() - 1).contains(v)) {
            return true;
          }
        }
        return false;
      }
      Object value = a.scalar();
      return value != null && value.equals(scalar);
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
    private final List<DeviceAttribute> added = new ArrayList<>();

    Distinct(List<String> requests, String attribute, boolean listTypes) {
      super(requests, attribute, listTypes);
    }

    @Override
    boolean add(RequestData rd, Dev dev) {
      if (!appliesTo(rd)) {
        return true;
      }
      DeviceAttribute attr = Attributes.lookup(dev, attribute);
      // The first device is always accepted when it has the attribute, as upstream.
      if (attr == null || (!added.isEmpty() && !distinctFromAll(attr))) {
        return false;
      }
      added.add(attr);
      return true;
    }

    private boolean distinctFromAll(DeviceAttribute attr) {
      if (listTypes) {
        Set<Object> values = Attributes.asSet(attr);
        if (values == null) {
          return false;
        }
        for (DeviceAttribute other : added) {
          Set<Object> o = Attributes.asSet(other);
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
      Object value = Attributes.scalar(attr);
      if (value == null) {
        return false;
      }
      for (DeviceAttribute other : added) {
        if (value.equals(Attributes.scalar(other))) {
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
      DeviceAttribute attr = Attributes.lookup(dev, attribute);
      return attr != null && (added.isEmpty() || distinctFromAll(attr));
    }

    @Override
    String describe() {
      return "distinctAttribute " + attribute;
    }
  }
}
