package io.jdra.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelOptions;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.common.types.StructTypeReference;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelListsExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import dev.cel.runtime.standard.EqualsOperator;
import dev.cel.runtime.standard.IndexOperator;
import dev.cel.runtime.standard.MatchesFunction;
import dev.cel.runtime.standard.NotEqualsOperator;
import java.util.Optional;

/**
 * The DRA selector environment: the {@code device} variable and the libraries of the Kubernetes
 * base CEL environment that selectors use, for one combination of feature gates.
 */
final class CelEnvironment {
  static final String DEVICE_TYPE_NAME = "kubernetes.DRADevice";
  static final CelType DEVICE_TYPE_NAME_REF = StructTypeReference.create(DEVICE_TYPE_NAME);
  static final CelType INNER_DYN_MAP = MapType.create(SimpleType.STRING, SimpleType.DYN);
  static final CelType ATTRIBUTES_TYPE = MapType.create(SimpleType.STRING, INNER_DYN_MAP);
  static final CelType CAPACITY_TYPE =
      MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, QuantityValue.TYPE));

  /** Maximum regex program size, as cel-go's default for Kubernetes is unbounded but RE2. */
  static final CelOptions CEL_OPTIONS =
      CelOptions.current()
          .enableHeterogeneousNumericComparisons(true)
          .enableOptionalSyntax(true)
          .enableHomogeneousLiterals(true)
          .enableTimestampEpoch(true)
          .populateMacroCalls(false)
          .build();

  /** lists.range is declared by {@link ListsLibrary} with a size guard. */
  private static final java.util.Set<CelListsExtensions.Function> LISTS_WITHOUT_RANGE =
      java.util.EnumSet.complementOf(java.util.EnumSet.of(CelListsExtensions.Function.RANGE));

  private final Cel cel;
  private final StructType deviceType;

  private CelEnvironment(Cel cel, StructType deviceType) {
    this.cel = cel;
    this.deviceType = deviceType;
  }

  Cel cel() {
    return cel;
  }

  StructType deviceType() {
    return deviceType;
  }

  static CelEnvironment create(boolean listTypeAttributes, boolean consumableCapacity) {
    StructType device = deviceType(consumableCapacity);
    FunctionTable t = new FunctionTable();
    SemverLibrary.register(t);
    QuantityLibrary.register(t);
    RegexLibrary.register(t);
    ListsLibrary.register(t);
    ListsLibrary.registerRange(t);
    FormatFunction.register(t);
    if (listTypeAttributes) {
      ListsLibrary.registerIncludes(t);
    }
    // Unknown domains index to an empty map (see DomainsView); other maps as standard.
    // Standard index bindings are replaced as a whole (CEL-Java binds them per function name).
    CelFunctionBinding.fromOverloads(
            "_[_]",
            CelFunctionBinding.from(
                "index_list", java.util.List.class, Object.class, CelEnvironment::indexList),
            CelFunctionBinding.from(
                "index_map", java.util.Map.class, Object.class, CelEnvironment::indexMap))
        .forEach(t::binding);
    // Equality with fast paths for the scalar types selectors compare most.
    CelFunctionBinding.fromOverloads(
            "_==_",
            CelFunctionBinding.from("equals", Object.class, Object.class, CelEnvironment::equal))
        .forEach(t::binding);
    CelFunctionBinding.fromOverloads(
            "_!=_",
            CelFunctionBinding.from(
                "not_equals", Object.class, Object.class, (x, y) -> !equal(x, y)))
        .forEach(t::binding);
    // matches with the compiled-pattern cache (the standard binding compiles on every call).
    CelFunctionBinding.fromOverloads(
            "matches",
            CelFunctionBinding.from("matches", String.class, String.class, RegexLibrary::matches),
            CelFunctionBinding.from(
                "matches_string", String.class, String.class, RegexLibrary::matches))
        .forEach(t::binding);
    Cel cel =
        CelFactory.plannerCelBuilder()
            .setOptions(CEL_OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .setStandardFunctions(
                CelStandardFunctions.newBuilder()
                    .filterFunctions((fn, overload) ->
                        !(overload instanceof IndexOperator.IndexOverload)
                            && !(overload instanceof MatchesFunction.MatchesOverload)
                            && !(overload instanceof EqualsOperator.EqualsOverload)
                            && !(overload instanceof NotEqualsOperator.NotEqualsOverload))
                    .build())
            .setTypeProvider(typeProvider(device))
            .addVar("device", device)
            .addCompilerLibraries(
                CelExtensions.strings(),
                CelExtensions.bindings(),
                CelExtensions.optional(),
                CelExtensions.lists(LISTS_WITHOUT_RANGE),
                CelExtensions.sets(CEL_OPTIONS),
                CelExtensions.comprehensions())
            .addRuntimeLibraries(
                CelExtensions.strings(),
                CelExtensions.optional(),
                CelExtensions.lists(LISTS_WITHOUT_RANGE),
                CelExtensions.sets(CEL_OPTIONS),
                CelExtensions.comprehensions())
            .addFunctionDeclarations(t.declarations())
            .addFunctionBindings(t.bindings())
            .build();
    return new CelEnvironment(cel, device);
  }

  private static final RuntimeEquality EQUALITY =
      RuntimeEquality.create(RuntimeHelpers.create(), CEL_OPTIONS);

  /** CEL equality; the standard implementation first probes for protobuf types on every call. */
  static boolean equal(Object x, Object y) {
    if (x instanceof String a && y instanceof String b) {
      return a.equals(b);
    }
    if (x instanceof Long a && y instanceof Long b) {
      return a.longValue() == b.longValue();
    }
    if (x instanceof Boolean a && y instanceof Boolean b) {
      return a.booleanValue() == b.booleanValue();
    }
    return EQUALITY.objectEquals(x, y);
  }

  private static Object indexList(java.util.List<?> list, Object index)
      throws dev.cel.runtime.CelEvaluationException {
    long i;
    if (index instanceof Long l) {
      i = l;
    } else if (index instanceof com.google.common.primitives.UnsignedLong u) {
      i = u.longValue() < 0 ? Long.MAX_VALUE : u.longValue();
    } else if (index instanceof Double d && d == Math.rint(d)) {
      i = (long) (double) d;
    } else {
      throw new dev.cel.runtime.CelEvaluationException(
          "unsupported index type '" + ValueTypes.typeName(index) + "' in list");
    }
    if (i < 0 || i >= list.size()) {
      throw new dev.cel.runtime.CelEvaluationException(
          "index '" + i + "' out of range in list size '" + list.size() + "'");
    }
    return list.get((int) i);
  }

  private static Object indexMap(java.util.Map<?, ?> map, Object key) {
    if (map instanceof LazyMapValue lazy) {
      return lazy.index(key);
    }
    Object v = map.get(key);
    if (v == null) {
      v = numericKeyLookup(map, key);
    }
    if (v == null) {
      throw LazyMapValue.noSuchKey(key);
    }
    return v;
  }

  /** CEL map keys match across int, uint and integral double. */
  private static Object numericKeyLookup(java.util.Map<?, ?> map, Object key) {
    if (key instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
      Object v = map.get((long) (double) d);
      return v != null
          ? v
          : map.get(com.google.common.primitives.UnsignedLong.valueOf((long) (double) d));
    }
    if (key instanceof Long l) {
      return l >= 0 ? map.get(com.google.common.primitives.UnsignedLong.fromLongBits(l)) : null;
    }
    if (key instanceof com.google.common.primitives.UnsignedLong u) {
      return u.longValue() >= 0 ? map.get(u.longValue()) : null;
    }
    return null;
  }

  private static StructType deviceType(boolean consumableCapacity) {
    ImmutableSet<String> fields =
        consumableCapacity
            ? ImmutableSet.of("driver", "attributes", "capacity", "allowMultipleAllocations")
            : ImmutableSet.of("driver", "attributes", "capacity");
    return StructType.create(
        DEVICE_TYPE_NAME,
        fields,
        name ->
            Optional.ofNullable(
                switch (name) {
                  case "driver" -> SimpleType.STRING;
                  case "attributes" -> ATTRIBUTES_TYPE;
                  case "capacity" -> CAPACITY_TYPE;
                  case "allowMultipleAllocations" -> consumableCapacity ? SimpleType.BOOL : null;
                  default -> null;
                }));
  }

  private static CelTypeProvider typeProvider(StructType device) {
    ImmutableList<CelType> types = ImmutableList.of(device, Semver.TYPE, QuantityValue.TYPE);
    return new CelTypeProvider() {
      @Override
      public ImmutableCollection<CelType> types() {
        return types;
      }

      @Override
      public Optional<CelType> findType(String name) {
        return types.stream().filter(t -> t.name().equals(name)).findFirst();
      }
    };
  }
}
