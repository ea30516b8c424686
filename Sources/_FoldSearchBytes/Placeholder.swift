package enum _Placeholder {}
