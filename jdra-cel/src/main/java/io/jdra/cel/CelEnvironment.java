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
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.standard.EqualsOperator;
import dev.cel.runtime.standard.IndexOperator;
import dev.cel.runtime.standard.MatchesFunction;
import dev.cel.runtime.standard.NotEqualsOperator;
import dev.cel.validator.CelValidator;
import dev.cel.validator.CelValidatorFactory;
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

  /**
   * As Kubernetes' base environment: cross-type numeric comparisons, optionals. Homogeneous
   * literals are checked after type-checking by {@link HomogeneousLiterals}, as cel-go does, so
   * that a mixed literal is {@code list(dyn)} where it is allowed.
   */
  static final CelOptions CEL_OPTIONS =
      CelOptions.current()
          .enableHeterogeneousNumericComparisons(true)
          .enableOptionalSyntax(true)
          .enableTimestampEpoch(true)
          .populateMacroCalls(false)
          .build();

  /**
   * lists.range is declared by {@link ListsLibrary} with a size guard, and sortBy by {@link
   * SortByMacro} with cel-go's expansion.
   */
  private static final java.util.Set<CelListsExtensions.Function> LISTS_WITHOUT_RANGE =
      java.util.EnumSet.complementOf(
          java.util.EnumSet.of(
              CelListsExtensions.Function.RANGE, CelListsExtensions.Function.SORT_BY));

  private final Cel cel;
  private final CelValidator validator;

  private CelEnvironment(Cel cel) {
    this.cel = cel;
    this.validator =
        CelValidatorFactory.standardCelValidatorBuilder(cel)
            .addAstValidators(HomogeneousLiterals.INSTANCE)
            .build();
  }

  Cel cel() {
    return cel;
  }

  /** The checks Kubernetes' base environment runs on a type-checked expression. */
  CelValidator validator() {
    return validator;
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
    NetLibrary.register(t);
    UrlLibrary.register(t);
    SortByMacro.register(t);
    if (listTypeAttributes) {
      ListsLibrary.registerIncludes(t);
    }
    StandardOverrides.register(t);
    Cel cel =
        CelFactory.plannerCelBuilder()
            .setOptions(CEL_OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addMacros(SortByMacro.MACRO)
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
    return new CelEnvironment(cel);
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
    ImmutableList<CelType> types =
        ImmutableList.of(
            device,
            Semver.TYPE,
            QuantityValue.TYPE,
            IpValue.TYPE,
            IpValue.Cidr.TYPE,
            UrlValue.TYPE);
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
