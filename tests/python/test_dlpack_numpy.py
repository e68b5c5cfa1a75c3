"""NumPy reads tensors that tensor-layout exported as DLPack managed tensors.

The producer is the C library built from dlpack_producer.rs (its path in the environment
variable DLPACK_PRODUCER). Each test wraps a managed tensor in a PyCapsule the way a DLPack
producer does, hands it to numpy.from_dlpack, compares every element (padding included) with
what the producer wrote, and checks that the tensor's deleter runs once it is no longer used.
"""

import ctypes
import gc
import os
import unittest

import numpy as np

LIB = ctypes.CDLL(os.environ["DLPACK_PRODUCER"])


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    pass


DLManagedTensor._fields_ = [
    ("dl_tensor", DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))),
]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


DLManagedTensorVersioned._fields_ = [
    ("version_major", ctypes.c_uint32),
    ("version_minor", ctypes.c_uint32),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))),
    ("flags", ctypes.c_uint64),
    ("dl_tensor", DLTensor),
]

DIMS = [ctypes.c_size_t] * 4
for name, struct in [
    ("tl_nchw_f32", DLManagedTensor),
    ("tl_nhwc_u16", DLManagedTensor),
    ("tl_nchw16c_f32", DLManagedTensor),
    ("tl_crouton_u8", DLManagedTensor),
    ("tl_versioned_nchw_i32", DLManagedTensorVersioned),
]:
    getattr(LIB, name).argtypes = DIMS
    getattr(LIB, name).restype = ctypes.POINTER(struct)
LIB.tl_column_major_f64.argtypes = [ctypes.c_size_t] * 2
LIB.tl_column_major_f64.restype = ctypes.POINTER(DLManagedTensor)
LIB.tl_deleted_count.restype = ctypes.c_size_t

PyCapsule_New = ctypes.pythonapi.PyCapsule_New
PyCapsule_New.restype = ctypes.py_object
PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
PyCapsule_IsValid = ctypes.pythonapi.PyCapsule_IsValid
PyCapsule_IsValid.restype = ctypes.c_int
PyCapsule_IsValid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
PyCapsule_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
PyCapsule_GetPointer.restype = ctypes.c_void_p
PyCapsule_GetPointer.argtypes = [ctypes.c_void_p, ctypes.c_char_p]

LEGACY_NAME = b"dltensor"
VERSIONED_NAME = b"dltensor_versioned"


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def legacy_capsule_destructor(capsule):
    # A consumer renames the capsule ("used_dltensor") and calls the deleter itself; a capsule
    # nobody consumed still owns its tensor.
    if PyCapsule_IsValid(capsule, LEGACY_NAME):
        managed = ctypes.cast(PyCapsule_GetPointer(capsule, LEGACY_NAME), ctypes.POINTER(DLManagedTensor))
        managed.contents.deleter(managed)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def versioned_capsule_destructor(capsule):
    if PyCapsule_IsValid(capsule, VERSIONED_NAME):
        managed = ctypes.cast(
            PyCapsule_GetPointer(capsule, VERSIONED_NAME), ctypes.POINTER(DLManagedTensorVersioned)
        )
        managed.contents.deleter(managed)


def legacy_capsule(managed):
    return PyCapsule_New(
        ctypes.cast(managed, ctypes.c_void_p),
        LEGACY_NAME,
        ctypes.cast(legacy_capsule_destructor, ctypes.c_void_p),
    )


class Exported:
    """A producer of the legacy protocol: __dlpack__ takes no max_version, so NumPy asks again
    without it and receives a "dltensor" capsule."""

    def __init__(self, managed):
        self.managed = managed

    def __dlpack__(self, stream=None):
        capsule, self.managed = legacy_capsule(self.managed), None
        return capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


class ExportedVersioned:
    """A producer of DLPack 1.x: a "dltensor_versioned" capsule when the consumer asks for one."""

    def __init__(self, managed):
        self.managed = managed
        self.max_version = None

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        self.max_version = max_version
        assert max_version is not None and max_version[0] >= 1, max_version
        capsule = PyCapsule_New(
            ctypes.cast(self.managed, ctypes.c_void_p),
            VERSIONED_NAME,
            ctypes.cast(versioned_capsule_destructor, ctypes.c_void_p),
        )
        self.managed = None
        return capsule

    def __dlpack_device__(self):
        return (1, 0)


def value(n, c, h, w):
    return n * 1000 + c * 100 + h * 10 + w


def expected_nchw(dims, dtype):
    return np.fromfunction(lambda n, c, h, w: value(n, c, h, w), dims, dtype=np.int64).astype(dtype)


class NumpyReadsExports(unittest.TestCase):
    def assert_deleted_once_freed(self, make_array):
        """make_array() returns an array over exported memory; once dropped, one deleter ran."""
        before = LIB.tl_deleted_count()
        array = make_array()
        self.assertEqual(LIB.tl_deleted_count(), before)
        del array
        gc.collect()
        self.assertEqual(LIB.tl_deleted_count(), before + 1)

    def test_plain_nchw_is_read_in_place_and_freed(self):
        def check():
            managed = LIB.tl_nchw_f32(2, 3, 4, 5)
            data = managed.contents.dl_tensor.data
            array = np.from_dlpack(Exported(managed))
            self.assertEqual(array.shape, (2, 3, 4, 5))
            self.assertEqual(array.dtype, np.float32)
            np.testing.assert_array_equal(array, expected_nchw((2, 3, 4, 5), np.float32))
            self.assertEqual(array.ctypes.data, data)  # no copy
            return array

        self.assert_deleted_once_freed(check)

    def test_nhwc_is_seen_in_logical_order_with_its_strides(self):
        def check():
            n, c, h, w = 1, 3, 2, 5
            array = np.from_dlpack(Exported(LIB.tl_nhwc_u16(n, c, h, w)))
            self.assertEqual(array.shape, (n, c, h, w))
            item = 2
            self.assertEqual(array.strides, (h * w * c * item, item, w * c * item, c * item))
            np.testing.assert_array_equal(array, expected_nchw((n, c, h, w), np.uint16))
            return array

        self.assert_deleted_once_freed(check)

    def test_nchw16c_is_its_blocked_form_with_zero_padding(self):
        def check():
            n, c, h, w = 2, 17, 3, 1
            array = np.from_dlpack(Exported(LIB.tl_nchw16c_f32(n, c, h, w)))
            self.assertEqual(array.shape, (n, 2, h, w, 16))
            expected = np.zeros((n, 2, h, w, 16), np.float32)
            for cb in range(2):
                for ci in range(16):
                    ch = cb * 16 + ci
                    if ch < c:
                        for i in range(n):
                            for y in range(h):
                                for x in range(w):
                                    expected[i, cb, y, x, ci] = value(i, ch, y, x)
            np.testing.assert_array_equal(array, expected)
            return array

        self.assert_deleted_once_freed(check)

    def test_crouton_is_its_seven_axis_blocked_form(self):
        def check():
            n, h, w, c = 1, 9, 3, 33
            array = np.from_dlpack(Exported(LIB.tl_crouton_u8(n, h, w, c)))
            self.assertEqual(array.shape, (n, 2, 1, 2, 8, 8, 32))
            self.assertTrue(array.flags["C_CONTIGUOUS"])
            for hb, wb, cb, hi, wi, ci in np.ndindex(2, 1, 2, 8, 8, 32):
                y, x, ch = hb * 8 + hi, wb * 8 + wi, cb * 32 + ci
                want = value(0, ch, y, x) % 256 if (y < h and x < w and ch < c) else 0
                self.assertEqual(array[0, hb, wb, cb, hi, wi, ci], want)
            return array

        self.assert_deleted_once_freed(check)

    def test_column_major_with_a_byte_offset(self):
        def check():
            managed = LIB.tl_column_major_f64(3, 4)
            self.assertEqual(managed.contents.dl_tensor.byte_offset, 3 * 8)
            array = np.from_dlpack(Exported(managed))
            self.assertEqual(array.strides, (8, 3 * 8))
            np.testing.assert_array_equal(array, np.fromfunction(lambda r, c: r * 10 + c, (3, 4)))
            return array

        self.assert_deleted_once_freed(check)

    def test_empty_tensor(self):
        def check():
            array = np.from_dlpack(Exported(LIB.tl_nchw16c_f32(1, 0, 2, 2)))
            self.assertEqual(array.shape, (1, 0, 2, 2, 16))
            return array

        self.assert_deleted_once_freed(check)

    def test_writes_through_numpy_reach_the_exported_memory(self):
        # NumPy makes arrays of legacy capsules read-only; a versioned export without the
        # read-only flag is writable.
        def check():
            managed = LIB.tl_versioned_nchw_i32(1, 1, 1, 3)
            array = np.from_dlpack(ExportedVersioned(managed))
            self.assertTrue(array.flags.writeable)
            array[0, 0, 0, 1] = 42
            data = ctypes.cast(managed.contents.dl_tensor.data, ctypes.POINTER(ctypes.c_int32))
            self.assertEqual([data[i] for i in range(3)], [0, 42, 2])
            return array

        self.assert_deleted_once_freed(check)

    def test_versioned_capsule(self):
        def check():
            producer = ExportedVersioned(LIB.tl_versioned_nchw_i32(1, 2, 3, 4))
            array = np.from_dlpack(producer)
            self.assertIsNotNone(producer.max_version)
            np.testing.assert_array_equal(array, expected_nchw((1, 2, 3, 4), np.int32))
            return array

        self.assert_deleted_once_freed(check)

    def test_a_capsule_nobody_consumed_frees_its_tensor(self):
        before = LIB.tl_deleted_count()
        capsule = legacy_capsule(LIB.tl_nchw_f32(1, 1, 1, 1))
        self.assertEqual(LIB.tl_deleted_count(), before)
        del capsule
        gc.collect()
        self.assertEqual(LIB.tl_deleted_count(), before + 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
