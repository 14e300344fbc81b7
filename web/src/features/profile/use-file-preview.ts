import { useEffect, useState } from 'react'

/**
 * A chosen file with its blob: URL (the preview before upload). The URL is made when the file is chosen and
 * revoked when another is chosen or the screen closes.
 */
export function useFilePreview() {
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null)
  useEffect(() => {
    if (!preview) return
    return () => URL.revokeObjectURL(preview.url)
  }, [preview])
  return {
    file: preview?.file ?? null,
    url: preview?.url ?? null,
    choose: (file: File | null) => setPreview(file ? { file, url: URL.createObjectURL(file) } : null),
  }
}
